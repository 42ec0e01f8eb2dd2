import { useState } from 'react';
import { downloadFile } from '../../api/client';
import { Banner } from '../../ui/Banner';
import { CAMERA_KEYS, DUMP_NEEDS_DATE_AND_CAMERA } from './tasks';

/** The report block: a date and a camera (1–4) → the work-time record of that camera as TSV. */
export function WorkTimeRecord({ structureId }: { structureId: number }) {
  const [date, setDate] = useState('');
  const [camera, setCamera] = useState('');
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    if (!date || !camera) {
      setError(DUMP_NEEDS_DATE_AND_CAMERA);
      return;
    }
    setError(null);
    await downloadFile(
      '/api/v1/dump',
      { query: { structure_id: structureId, camera_key: camera, date, format: 'tsv' } },
      `work-time-${date}-cam${camera}.tsv`,
    ).catch(() => {});
  };

  return (
    <section className="card report-block" aria-labelledby="dump-title">
      <h2 id="dump-title">Запись рабочего времени</h2>
      <div className="row">
        <label>
          Дата
          <input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label>
          Камера
          <select value={camera} onChange={(e) => setCamera(e.target.value)}>
            <option value="">—</option>
            {CAMERA_KEYS.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" onClick={download}>
          Скачать (TSV)
        </button>
      </div>
      <Banner text={error} />
    </section>
  );
}
