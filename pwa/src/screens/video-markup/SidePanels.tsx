import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client';
import type { Activity, OtherVideo, VideoMeta } from '../../api/types';
import { formatDateTime, formatSeconds } from '../../format/time';
import { notify } from '../../state/notifications';
import { agreement } from './agreement';
import { timeBudget } from './budget';
import type { MarkupRow } from './model';
import type { OperationOption } from './OperationRows';

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

export function Activities({ items, timeZone }: { items: Activity[]; timeZone: string }) {
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
}

/** The video's comment, saved with POST /api/v1/video_meta/{videoId}. */
export function VideoComment({ videoId, initial }: { videoId: number; initial: string }) {
  const [value, setValue] = useState(initial);
  const [saved, setSaved] = useState(initial);
  useEffect(() => {
    setValue(initial);
    setSaved(initial);
  }, [initial]);
  const save = async () => {
    const reply = await api.post<VideoMeta>(`/api/v1/video_meta/${videoId}`, { comment: value }).catch(() => null);
    if (reply) {
      setSaved(reply.comment);
      notify('success', 'Комментарий к видео сохранён');
    }
  };
  return (
    <section className="card side">
      <h2>Комментарий к видео</h2>
      <textarea aria-label="Комментарий к видео" value={value} rows={3} onChange={(e) => setValue(e.target.value)} />
      <button type="button" className="button secondary small" disabled={value === saved} onClick={save}>
        Сохранить комментарий
      </button>
    </section>
  );
}

/** The markup helper: runs the camera's trained model on the visible span, or says there is none. */
export function MarkupHelper() {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <section className="card side">
      <h2>Помощник разметки</h2>
      <button
        type="button"
        className="button secondary small"
        onClick={() =>
          setMessage('Для этой камеры ещё нет обученной модели. Обучите её на экране «Настроить модель», и помощник будет размечать видимый участок сам.')
        }
      >
        Анализ
      </button>
      {message && (
        <p className="muted small" role="status">
          {message}
        </p>
      )}
    </section>
  );
}

/** BORIS-style time budget of the open video. */
export function TimeBudgetPanel({ rows, duration, operations }: { rows: readonly MarkupRow[]; duration: number; operations: OperationOption[] }) {
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
                  <td>{line.meanSeconds.toFixed(1)}</td>
                  <td>{line.sdSeconds.toFixed(1)}</td>
                  <td>{line.sharePercent.toFixed(1)} %</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Agreement between two assessors who marked the same video: Cohen's kappa and where they differ. */
export function AgreementPanel({
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
        {pair[0]} и {pair[1]}: каппа Коэна <strong>{result.kappa === null ? '—' : result.kappa.toFixed(2)}</strong>, совпадение{' '}
        {(result.observedAgreement * 100).toFixed(1)} % из {result.slots} с.
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
}
