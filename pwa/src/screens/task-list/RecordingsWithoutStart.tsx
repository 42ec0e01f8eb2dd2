import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { RecordingWithoutStart } from '../../api/types';
import { formatDateTime } from '../../format/time';
import { useAllows } from '../../state/login';
import { RecordingStartEditor } from './RecordingStart';

/**
 * Recordings of the structure whose start nobody has given (GET /api/v1/recordings_without_start): an
 * upload left before its start was confirmed, or a file the loader sent without a date in its name.
 * Tasks and reports leave them out until their start is given, so without this block they would be
 * lost; giving it here (markup.write, as at upload) brings the recording into the task list.
 */
export function RecordingsWithoutStart({
  structureId,
  timeZone,
  refreshKey,
  onGiven,
}: {
  structureId: number;
  timeZone: string;
  refreshKey?: unknown;
  onGiven: () => void;
}) {
  const [recordings, setRecordings] = useState<RecordingWithoutStart[]>([]);
  const canGive = useAllows('markup.write');
  const load = useCallback(() => {
    api.get('/api/v1/recordings_without_start', { query: { structure_id: structureId }, quiet: true }).then(setRecordings, () => setRecordings([]));
  }, [structureId]);
  useEffect(load, [load, refreshKey]);
  if (recordings.length === 0) return null;
  return (
    <section className="card recordings-without-start" data-testid="recordings-without-start">
      <h2>Записи без начала</h2>
      <p className="muted">В имени файла и его метаданных нет даты и времени начала. Пока начало не указано, записи нет в задачах разметки и в отчётах.</p>
      <ul>
        {recordings.map((recording) => (
          <li key={recording.id} data-testid="recording-without-start">
            <strong>{recording.filename}</strong>{' '}
            <span className="muted">
              камера {recording.camera_key}, загружена {formatDateTime(recording.created_at, timeZone)}
              {recording.status === 'ready' ? '' : ', ещё обрабатывается'}
            </span>
            {canGive && (
              <RecordingStartEditor
                start={{ videoId: recording.id, startTime: null, source: 'unknown', confirmed: false }}
                timeZone={timeZone}
                action="Указать"
                onSaved={() => {
                  load();
                  onGiven();
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
