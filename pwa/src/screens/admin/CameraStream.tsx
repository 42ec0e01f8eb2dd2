import { useCallback, useEffect, useState } from 'react';
import { api, ApiCallError } from '../../api/client';
import type { CameraStream, LiveModelChoices, StreamCheck, StreamSettingsBody } from '../../api/types';
import { notify } from '../../status/notifications';

/**
 * A camera's RTSP stream (issue 45, docs/live-cameras.md): address (the password comes back as ***),
 * check with a frame, recording state, the «offline» alert's limit, and the model that labels the
 * segments live.
 */

const STATE_TEXT: Record<CameraStream['state'], string> = { online: 'пишется', connecting: 'подключается', offline: 'не пишется' };

type Draft = Required<Pick<StreamSettingsBody, 'url' | 'enabled' | 'segment_seconds' | 'retention_days' | 'retention_gb' | 'offline_alert_seconds'>>;

export interface StreamFormProps {
  cameraName: string;
  stream: CameraStream | null;
  draft: Draft;
  check: StreamCheck | null;
  checkError: string | null;
  busy: boolean;
  /** The camera's trained models and its structure's employees (the live labels' choices). */
  choices: LiveModelChoices;
  onDraft(draft: Draft): void;
  onCheck(): void;
  onSave(): void;
  onLiveModel(modelId: number | null, employeeId: number | null): void;
}

/** The live labels' row: the camera's model that labels its closed segments, and whom for. Draws only. */
function LiveModelRow({
  cameraName,
  live,
  choices,
  busy,
  onLiveModel,
}: Pick<StreamFormProps, 'cameraName' | 'choices' | 'busy' | 'onLiveModel'> & { live: CameraStream['live_model'] }) {
  const { models, employees } = choices;
  return (
    <div className="row">
      <label className="fit-wide">
        Живая разметка
        <select
          aria-label={`Камера ${cameraName}: модель живой разметки`}
          value={live?.id ?? ''}
          disabled={busy}
          onChange={(e) => onLiveModel(e.target.value === '' ? null : Number(e.target.value), live?.employee_id ?? null)}
        >
          <option value="">не размечать</option>
          {live && !models.some((m) => m.id === live.id) && <option value={live.id}>{live.name}</option>}
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
      {live && (
        <label>
          Кому записывать
          <select
            aria-label={`Камера ${cameraName}: сотрудник живой разметки`}
            value={live.employee_id ?? ''}
            disabled={busy}
            onChange={(e) => onLiveModel(live.id, e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">сотруднику места в этот день</option>
            {employees.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="muted small">
        {live
          ? `Модель «${live.name}» размечает каждый закрытый отрезок записи; метки — на проверку, как при «Применить».${live.employee_id === null ? ' Без выбранного сотрудника метки пишутся тому, кто размечен на этом месте в этот день; если никого нет — разметка отрезка не выйдет.' : ''}`
          : models.length === 0
            ? 'У камеры нет обученных моделей: обучите модель на её записи.'
            : 'Выберите модель — она будет размечать отрезки по мере записи.'}
      </p>
    </div>
  );
}

/** What the panel shows: the form, the recording state, the check's answer with its frame. Draws only. */
export function StreamForm({ cameraName, stream, draft, check, checkError, busy, choices, onDraft, onCheck, onSave, onLiveModel }: StreamFormProps) {
  return (
    <div className="camera-stream" data-testid="camera-stream">
      <p className="muted small">
        {stream
          ? `Поток: ${STATE_TEXT[stream.state]}${stream.last_frame_at ? `, последний кадр ${new Date(stream.last_frame_at).toLocaleString('ru-RU')}` : ''}${stream.last_error ? ` — ${stream.last_error}` : ''}`
          : 'Поток не задан: запись только из папки и загрузок.'}
      </p>
      <div className="row">
        <label className="fit-wide">
          Адрес потока (rtsp:// или rtsps://)
          <input
            aria-label={`Камера ${cameraName}: адрес потока`}
            value={draft.url}
            placeholder="rtsp://пользователь:пароль@192.168.1.64:554/Streaming/Channels/101"
            maxLength={1024}
            onChange={(e) => onDraft({ ...draft, url: e.target.value })}
          />
        </label>
        <label>
          Отрезок, с
          <input
            type="number"
            min={5}
            max={900}
            aria-label={`Камера ${cameraName}: длина отрезка`}
            value={draft.segment_seconds}
            onChange={(e) => onDraft({ ...draft, segment_seconds: Number(e.target.value) })}
          />
        </label>
        <label>
          Хранить, дней
          <input
            type="number"
            min={1}
            max={365}
            aria-label={`Камера ${cameraName}: срок хранения, дней`}
            value={draft.retention_days ?? ''}
            placeholder="без срока"
            onChange={(e) => onDraft({ ...draft, retention_days: e.target.value === '' ? null : Number(e.target.value) })}
          />
        </label>
        <label>
          «Не в сети» через, с
          <input
            type="number"
            min={10}
            max={86400}
            aria-label={`Камера ${cameraName}: тревога «не в сети» через, с`}
            value={draft.offline_alert_seconds}
            onChange={(e) => onDraft({ ...draft, offline_alert_seconds: Number(e.target.value) })}
          />
        </label>
        <label>
          <input type="checkbox" checked={draft.enabled} onChange={(e) => onDraft({ ...draft, enabled: e.target.checked })} /> Записывать
        </label>
        <button type="button" className="button secondary small" disabled={busy || !draft.url.trim()} onClick={onCheck}>
          {busy ? 'Проверка…' : 'Проверить'}
        </button>
        <button type="button" className="button small" disabled={busy || !draft.url.trim()} onClick={onSave}>
          Сохранить поток
        </button>
      </div>
      {stream && <LiveModelRow cameraName={cameraName} live={stream.live_model} choices={choices} busy={busy} onLiveModel={onLiveModel} />}
      {checkError && (
        <p className="error" role="alert">
          {checkError}
        </p>
      )}
      {check && (
        <figure className="stream-check">
          <img src={check.snapshot} alt={`Кадр потока камеры ${cameraName}`} width={320} />
          <figcaption>
            {check.codec}, {check.width}×{check.height}
            {check.frame_rate ? `, ${check.frame_rate.toLocaleString('ru-RU', { maximumFractionDigits: 2 })} к/с` : ''}
            {check.browser_playable ? ' — записывается без перекодирования' : ' — браузер этот кодек не играет: записи будут перекодированы'}
          </figcaption>
        </figure>
      )}
    </div>
  );
}

/** The panel with its calls: loads the stream, checks an address, saves it. */
export function CameraStreamPanel({ cameraId, cameraName }: { cameraId: number; cameraName: string }) {
  const [stream, setStream] = useState<CameraStream | null>(null);
  const [draft, setDraft] = useState<Draft>({
    url: '',
    enabled: true,
    segment_seconds: 300,
    retention_days: null,
    retention_gb: null,
    offline_alert_seconds: 60,
  });
  const [choices, setChoices] = useState<LiveModelChoices>({ models: [], employees: [] });
  const [check, setCheck] = useState<StreamCheck | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      const row = await api.get('/api/v1/camera/{id}/stream', { path: { id: cameraId } });
      setStream(row);
      if (row)
        setDraft({
          url: row.url,
          enabled: row.enabled,
          segment_seconds: row.segment_seconds,
          retention_days: row.retention_days,
          retention_gb: row.retention_gb,
          offline_alert_seconds: row.offline_alert_seconds,
        });
      setChoices(await api.get('/api/v1/camera/{id}/live_model_choices', { path: { id: cameraId } }));
    } catch {
      // Shown by the API client.
    }
  }, [cameraId]);
  useEffect(() => {
    void load();
  }, [load]);
  const runCheck = async () => {
    setBusy(true);
    setCheck(null);
    setCheckError(null);
    try {
      setCheck(await api.post('/api/v1/camera/{id}/stream/check', { path: { id: cameraId }, body: { url: draft.url.trim() }, quiet: true }));
    } catch (err) {
      setCheckError(err instanceof ApiCallError ? err.message : 'Поток не проверен');
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    setBusy(true);
    try {
      setStream(await api.put('/api/v1/camera/{id}/stream', { path: { id: cameraId }, body: { ...draft, url: draft.url.trim() } }));
      notify('success', 'Поток камеры сохранён');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  const setLiveModel = async (modelId: number | null, employeeId: number | null) => {
    setBusy(true);
    try {
      setStream(await api.put('/api/v1/camera/{id}/live_model', { path: { id: cameraId }, body: { model_id: modelId, employee_id: employeeId } }));
      notify('success', modelId === null ? 'Живая разметка выключена' : 'Модель живой разметки сохранена');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <StreamForm
      cameraName={cameraName}
      stream={stream}
      draft={draft}
      check={check}
      checkError={checkError}
      busy={busy}
      choices={choices}
      onDraft={setDraft}
      onCheck={() => void runCheck()}
      onSave={() => void save()}
      onLiveModel={(id, employee) => void setLiveModel(id, employee)}
    />
  );
}
