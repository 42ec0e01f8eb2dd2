import { useCallback, useEffect, useState } from 'react';
import { api, ApiCallError } from '../../api/client';
import type { CameraStream, StreamCheck, StreamSettingsBody } from '../../api/types';
import { notify } from '../../status/notifications';

/** A camera's RTSP stream (issue 45, docs/live-cameras.md): address (the password comes back as ***), check with a frame, recording state. */

const STATE_TEXT: Record<CameraStream['state'], string> = { online: 'пишется', connecting: 'подключается', offline: 'не пишется' };

type Draft = Required<Pick<StreamSettingsBody, 'url' | 'enabled' | 'segment_seconds' | 'retention_days' | 'retention_gb'>>;

export interface StreamFormProps {
  cameraName: string;
  stream: CameraStream | null;
  draft: Draft;
  check: StreamCheck | null;
  checkError: string | null;
  busy: boolean;
  onDraft(draft: Draft): void;
  onCheck(): void;
  onSave(): void;
}

/** What the panel shows: the form, the recording state, the check's answer with its frame. Draws only. */
export function StreamForm({ cameraName, stream, draft, check, checkError, busy, onDraft, onCheck, onSave }: StreamFormProps) {
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
            min={60}
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
          <input type="checkbox" checked={draft.enabled} onChange={(e) => onDraft({ ...draft, enabled: e.target.checked })} /> Записывать
        </label>
        <button type="button" className="button secondary small" disabled={busy || !draft.url.trim()} onClick={onCheck}>
          {busy ? 'Проверка…' : 'Проверить'}
        </button>
        <button type="button" className="button small" disabled={busy || !draft.url.trim()} onClick={onSave}>
          Сохранить поток
        </button>
      </div>
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
  const [draft, setDraft] = useState<Draft>({ url: '', enabled: true, segment_seconds: 300, retention_days: null, retention_gb: null });
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
        });
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
  return (
    <StreamForm
      cameraName={cameraName}
      stream={stream}
      draft={draft}
      check={check}
      checkError={checkError}
      busy={busy}
      onDraft={setDraft}
      onCheck={() => void runCheck()}
      onSave={() => void save()}
    />
  );
}
