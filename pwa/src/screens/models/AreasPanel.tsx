import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { VideoArea, VideoAreaBody } from '../../api/types';
import { notify } from '../../status/notifications';
import { coordinateColumns, LocationTable } from '../../ui/LocationTable';
import type { FrameRect } from './FrameCanvas';
import { VISION_MESSAGES } from '../../../../workers/src/vision/messages';

interface AreasPanelProps {
  cameraId: number;
  areas: VideoArea[];
  rect: FrameRect | null;
  /** The captured frame the rectangle is drawn on: its size is stored with the area (any resolution later). */
  frame: { width: number; height: number } | null;
  canWrite: boolean;
  onChanged(): void;
  onAdded(): void;
}

/** Video areas of the camera (spec 02): the table with delete and the add form whose corners come from the rectangle on the frame. */
export function AreasPanel({ cameraId, areas, rect, frame, canWrite, onChanged, onAdded }: AreasPanelProps) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return notify('error', VISION_MESSAGES.needAreaName);
    if (!rect || rect.x2 <= rect.x1 || rect.y2 <= rect.y1) return notify('error', VISION_MESSAGES.needAreaRectangle);
    const body: VideoAreaBody = { camera_id: cameraId, name: name.trim(), ...rect, ...(frame ? { frame_width: frame.width, frame_height: frame.height } : {}) };
    setBusy(true);
    try {
      await api.post('/api/v1/video-area', { body });
      notify('success', `Область «${name.trim()}» добавлена`);
      setName('');
      onAdded();
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
    onChanged();
  };

  const remove = async (area: VideoArea) => {
    try {
      await api.delete('/api/v1/video-area/{id}', { path: { id: area.id } });
    } catch {
      // Shown by the API client (404: «Этой области нет в списке!»).
    }
    onChanged();
  };

  return (
    <section className="card" aria-labelledby="areas-title">
      <h2 id="areas-title">Области видео</h2>
      <LocationTable
        rows={areas}
        columns={coordinateColumns('x1', 'y1', 'x2', 'y2')}
        empty="Областей пока нет."
        canWrite={canWrite}
        noun="область"
        onDelete={(area) => void remove(area)}
        testId="areas-table"
        rowTestId="area-row"
      />
      {canWrite && (
        <form className="vision-form" onSubmit={add} aria-label="Новая область" data-testid="area-form">
          <div className="row">
            <label className="grow">
              Имя области
              <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
            </label>
            {(['x1', 'y1', 'x2', 'y2'] as const).map((key) => (
              <label key={key} className="narrow">
                {key}
                <input readOnly value={rect ? rect[key] : ''} aria-label={`Область ${key}`} />
              </label>
            ))}
          </div>
          <button type="submit" className="button" disabled={busy}>
            Добавить область
          </button>
        </form>
      )}
    </section>
  );
}
