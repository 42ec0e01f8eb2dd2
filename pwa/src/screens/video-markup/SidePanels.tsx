import { memo, useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client';
import type { Activity, OtherVideo, VisionModel } from '../../api/types';
import { formatDateTime, formatSeconds } from '../../format/time';
import { notify } from '../../status/notifications';
import { agreement } from './agreement';
import { timeBudget } from './budget';
import type { MarkupRow } from '../../offline/markup-rows';
import type { OperationOption } from './OperationRows';
import { num, pct } from '../reports/format';

export type { Activity, OtherVideo };

/** Other cameras at the same instant; choosing one saves first, then opens it at the same second. */
export function OtherCameras({ videos, onRefresh, onSwitch }: { videos: OtherVideo[] | null; onRefresh(): void; onSwitch(video: OtherVideo): void }) {
  return (
    <section className="card side">
      <div className="side-head">
        <h2>Другие камеры</h2>
        <button type="button" className="button secondary small" onClick={onRefresh}>
          Обновить
        </button>
      </div>
      {videos === null ? (
        <p className="muted">Загрузка…</p>
      ) : videos.length === 0 ? (
        <p className="muted">В этот момент другие камеры не писали.</p>
      ) : (
        <ul className="plain-list">
          {videos.map((v) => (
            <li key={v.video_id}>
              <button type="button" className="link-button other-camera" onClick={() => onSwitch(v)}>
                {v.camera_key ? `Камера ${v.camera_key}: ` : ''}
                {v.video_filename} · {formatSeconds(v.current_second)}
              </button>
              {v.workplace_names.length > 0 && <div className="muted small">{v.workplace_names.join(', ')}</div>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const Activities = memo(function Activities({ items, timeZone }: { items: Activity[]; timeZone: string }) {
  return (
    <section className="card side">
      <h2>Последние действия</h2>
      {items.length === 0 ? (
        <p className="muted">Пока ничего.</p>
      ) : (
        <ul className="plain-list">
          {items.map((a, i) => (
            <li key={i}>
              <span className="muted small">{formatDateTime(a.happened_at, timeZone)}</span> {a.author_name}: {a.comment}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

/** The video's comment, saved with POST /api/v1/video_meta/{videoId}. */
export const VideoComment = memo(function VideoComment({ videoId, initial, readOnly = false }: { videoId: number; initial: string; readOnly?: boolean }) {
  const [value, setValue] = useState(initial);
  const [saved, setSaved] = useState(initial);
  useEffect(() => {
    setValue(initial);
    setSaved(initial);
  }, [initial]);
  const save = async () => {
    const reply = await api.post('/api/v1/video_meta/{videoId}', { path: { videoId }, body: { comment: value } }).catch(() => null);
    if (reply) {
      setSaved(reply.comment);
      notify('success', 'Комментарий к видео сохранён');
    }
  };
  return (
    <section className="card side">
      <h2>Комментарий к видео</h2>
      <textarea aria-label="Комментарий к видео" value={value} rows={3} readOnly={readOnly} onChange={(e) => setValue(e.target.value)} />
      {!readOnly && (
        <button type="button" className="button secondary small" disabled={value === saved} onClick={save}>
          Сохранить комментарий
        </button>
      )}
    </section>
  );
});

/**
 * The markup helper (issue 14): «Анализ» applies the camera's trained model to the whole video and
 * loads its segments for review; without a trained model it says how to get one.
 */
export function MarkupHelper({
  models,
  onAnalyse,
  canAnalyse = true,
}: {
  models: VisionModel[];
  onAnalyse(modelId: number): Promise<string>;
  /** Applying a model is workspace.write (POST /api/v1/start_marker_applying): without it, no button. */
  canAnalyse?: boolean;
}) {
  const trained = models.filter((m) => m.meta.object_storage_key);
  const [modelId, setModelId] = useState<number | null>(null);
  const chosen = modelId ?? trained.at(-1)?.meta.id ?? null;
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const analyse = async () => {
    if (chosen === null) {
      setMessage({ text: 'Для этой камеры ещё нет обученной модели. Обучите её на экране «Настроить модель», и помощник будет размечать видео сам.' });
      return;
    }
    setBusy(true);
    setMessage({ text: 'Модель размечает видео…' });
    try {
      setMessage({ text: await onAnalyse(chosen) });
    } catch (err) {
      setMessage({ text: `Анализ не выполнен: ${err instanceof Error ? err.message : String(err)}`, error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card side" data-testid="markup-helper">
      <h2>Помощник разметки</h2>
      {!canAnalyse && <p className="muted small">Разметку моделью запускают администратор и аналитик.</p>}
      {canAnalyse && trained.length > 1 && (
        <select aria-label="Модель помощника" value={chosen ?? ''} onChange={(e) => setModelId(Number(e.target.value))}>
          {trained.map((m) => (
            <option key={m.meta.id} value={m.meta.id}>
              {m.meta.name}
            </option>
          ))}
        </select>
      )}
      {canAnalyse && (
        <button type="button" className="button secondary small" disabled={busy} onClick={() => void analyse()}>
          Анализ
        </button>
      )}
      {message && (
        <p className={message.error ? 'field-error small' : 'muted small'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </section>
  );
}

/** BORIS-style time budget of the open video. The panels here are memoised: a key press re-renders the editor around them, not them. */
export const TimeBudgetPanel = memo(function TimeBudgetPanel({
  rows,
  duration,
  operations,
}: {
  rows: readonly MarkupRow[];
  duration: number;
  operations: OperationOption[];
}) {
  const lines = useMemo(() => timeBudget(rows, duration), [rows, duration]);
  const name = (id: number) => operations.find((o) => o.id === id);
  return (
    <section className="card">
      <h2>Бюджет времени видео</h2>
      {lines.length === 0 ? (
        <p className="muted">Нет размеченных операций.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table compact" data-testid="time-budget">
            <thead>
              <tr>
                <th>Операция</th>
                <th>Раз</th>
                <th>Всего</th>
                <th>Среднее, с</th>
                <th>Ст. откл., с</th>
                <th>Доля видео</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.operationId}>
                  <td>
                    <span className="swatch" style={{ background: name(line.operationId)?.color }} /> {name(line.operationId)?.name ?? `№ ${line.operationId}`}
                  </td>
                  <td>{line.occurrences}</td>
                  <td>{formatSeconds(line.totalSeconds)}</td>
                  <td>{num(line.meanSeconds)}</td>
                  <td>{num(line.sdSeconds)}</td>
                  <td>{pct(line.sharePercent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
});

/** Agreement between two assessors who marked the same video: Cohen's kappa and where they differ. */
export const AgreementPanel = memo(function AgreementPanel({
  rows,
  duration,
  operations,
  onSeek,
}: {
  rows: readonly MarkupRow[];
  duration: number;
  operations: OperationOption[];
  onSeek(seconds: number): void;
}) {
  const authors = useMemo(() => [...new Set(rows.map((r) => r.author_name).filter((a): a is string => !!a))], [rows]);
  const [pair, setPair] = useState<[string, string] | null>(null);
  useEffect(() => {
    if (authors.length >= 2 && (!pair || !authors.includes(pair[0]) || !authors.includes(pair[1]))) setPair([authors[0]!, authors[1]!]);
  }, [authors, pair]);
  const result = useMemo(
    () =>
      pair
        ? agreement(
            rows.filter((r) => r.author_name === pair[0]),
            rows.filter((r) => r.author_name === pair[1]),
            duration,
          )
        : null,
    [rows, pair, duration],
  );
  if (authors.length < 2 || !pair || !result) return null;
  const name = (id: number | null) => (id === null ? 'не размечено' : (operations.find((o) => o.id === id)?.name ?? `№ ${id}`));
  return (
    <section className="card">
      <h2>Согласованность разметчиков</h2>
      <p>
        {pair[0]} и {pair[1]}: каппа Коэна <strong>{result.kappa === null ? '—' : num(result.kappa, 2)}</strong>, совпадение{' '}
        {pct(result.observedAgreement * 100)} из {result.slots} с.
      </p>
      {result.disagreements.length > 0 && (
        <ul className="plain-list">
          {result.disagreements.slice(0, 50).map((d) => (
            <li key={d.start}>
              <button type="button" className="link-button" onClick={() => onSeek(d.start)}>
                {formatSeconds(d.start)}–{formatSeconds(d.end)}
              </button>
              : {name(d.a)} / {name(d.b)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});
