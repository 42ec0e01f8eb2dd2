import { useState } from 'react';
import { api } from '../../api/client';
import type { RecordingStart as RecordingStartReply } from '../../api/types';
import { formatDateTimeSeconds, formatTime, fromLocal, localDate } from '../../format/time';
import { notify } from '../../status/notifications';

/**
 * A recording's start (PUT /api/v1/videos/{videoId}/start; docs/video-storage.md «Начало записи»):
 * shown with where it came from, confirmed or changed in a date-time field of the organisation's
 * zone. An unknown start leaves the field empty — it must be filled — and offers the file's time on
 * the sender's device as a one-click suggestion, never taken by itself.
 */
export type StartSource = RecordingStartReply['start_source'];

export const START_SOURCE_TEXT: Record<StartSource, string> = {
  file_name: 'из имени файла',
  creation_time: 'из метаданных файла',
  file_time: 'по часам камеры — время файла',
  manual: 'указано вручную',
  unknown: 'неизвестно',
};

/** The value of a datetime-local field (seconds shown) for an instant, in the zone. */
const fieldValue = (instant: string, timeZone: string) => `${localDate(instant, timeZone)}T${formatTime(instant, timeZone)}`;

export interface StartState {
  videoId: number;
  startTime: string | null;
  source: StartSource;
  confirmed: boolean;
}

export function RecordingStartEditor({
  start,
  suggested,
  timeZone,
  action,
  onSaved,
  onCancel,
}: {
  start: StartState;
  /** The file's time on the sender's device, offered for an unknown start. */
  suggested?: string | null;
  timeZone: string;
  /** The button's text: «Подтвердить» at upload, «Сохранить» when changing later. */
  action: string;
  onSaved: (saved: RecordingStartReply) => void;
  onCancel?: () => void;
}) {
  const [value, setValue] = useState(start.startTime ? fieldValue(start.startTime, timeZone) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!value) return setError('Укажите дату и время начала записи');
    const instant = fromLocal(value, timeZone);
    if (!Number.isFinite(instant)) return setError('Неверная дата или время');
    setError(null);
    setBusy(true);
    const saved = await api
      .put('/api/v1/videos/{videoId}/start', { path: { videoId: start.videoId }, body: { start_time: new Date(instant).toISOString() } })
      .catch((err: Error) => {
        setError(err.message);
        return null;
      });
    setBusy(false);
    if (!saved) return;
    notify('success', `Начало записи: ${saved.start_time ? formatDateTimeSeconds(saved.start_time, timeZone) : ''}`);
    onSaved(saved);
  };

  return (
    <div className="recording-start" data-testid="recording-start">
      {start.startTime ? (
        <span>
          Начало записи: {formatDateTimeSeconds(start.startTime, timeZone)} ({START_SOURCE_TEXT[start.source]})
        </span>
      ) : (
        <span className="warning">
          Начало записи неизвестно: в имени файла и его метаданных его нет — укажите его, иначе запись не попадёт в разметку и отчёты.
        </span>
      )}
      <div className="row">
        <label>
          Начало записи ({timeZone})
          <input type="datetime-local" step={1} value={value} required onChange={(e) => setValue(e.target.value)} />
        </label>
        {!start.startTime && suggested && (
          <button type="button" className="button secondary" onClick={() => setValue(fieldValue(suggested, timeZone))}>
            Взять время файла: {formatDateTimeSeconds(suggested, timeZone)}
          </button>
        )}
        <button type="button" className="button" disabled={busy} onClick={() => void save()}>
          {action}
        </button>
        {onCancel && (
          <button type="button" className="button secondary" onClick={onCancel}>
            Отмена
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
