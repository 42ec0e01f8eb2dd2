import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { MarkerTrainingBody, NamedItem, VideoArea } from '../../api/types';
import { notify } from '../../status/notifications';
import { VISION_MESSAGES } from '../../../../workers/src/vision/messages';

interface TrainingFormProps {
  videoId: number;
  duration: number | null;
  workplaces: NamedItem[];
  operations: NamedItem[];
  areas: VideoArea[];
  onStarted(): void;
}

const chosen = (select: HTMLSelectElement) => [...select.selectedOptions].map((o) => Number(o.value));

/** The form's fields and its submit: state outside the component. */
function useTrainingForm({ videoId, duration, onStarted }: Pick<TrainingFormProps, 'videoId' | 'duration' | 'onStarted'>) {
  const [start, setStart] = useState('0');
  const [end, setEnd] = useState(duration ? String(Math.floor(duration)) : '');
  const [comment, setComment] = useState('');
  /** Evaluate on a span of another video of the camera (another day); empty — blocks of this span (docs/vision.md). */
  const [test, setTest] = useState({ videoId: '', start: '0', end: '' });
  const [workplaceId, setWorkplaceId] = useState('');
  const [operationIds, setOperationIds] = useState<number[]>([]);
  const [areaIds, setAreaIds] = useState<number[]>([]);
  /** People's poses as features too (MoveNet on the server; such a model gives no live suggestion). */
  const [poses, setPoses] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (duration) setEnd((current) => current || String(Math.floor(duration)));
  }, [duration]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!workplaceId) {
      notify('error', VISION_MESSAGES.chooseWorkplace);
      return;
    }
    const body: MarkerTrainingBody = {
      workplace_id: Number(workplaceId),
      operation_ids: operationIds,
      marked_video_id: videoId,
      video_area_ids: areaIds,
      start_second: Number(start),
      end_second: Number(end),
      comment,
      test: test.videoId.trim() ? { video_id: Number(test.videoId), start_second: Number(test.start), end_second: Number(test.end) } : null,
      poses,
    };
    setBusy(true);
    try {
      const reply = await api.post('/api/v1/start_marker_training', { body });
      notify('success', `Обучение поставлено в очередь: модель № ${reply.model_id}`);
      setComment('');
      onStarted();
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  return {
    start,
    setStart,
    end,
    setEnd,
    comment,
    setComment,
    test,
    setTest,
    workplaceId,
    setWorkplaceId,
    operationIds,
    setOperationIds,
    areaIds,
    setAreaIds,
    poses,
    setPoses,
    busy,
    submit,
  };
}

/** The last row of the models table (spec 02): span, comment, workplace, operations, areas and «Начать обучение». */
export function TrainingForm({ videoId, duration, workplaces, operations, areas, onStarted }: TrainingFormProps) {
  const form = useTrainingForm({ videoId, duration, onStarted });

  return (
    <form className="vision-form" onSubmit={form.submit} aria-label="Обучение модели" data-testid="training-form">
      <h3>Обучить модель</h3>
      <div className="row">
        <label>
          Начало, с
          <input type="number" min={0} step={0.1} value={form.start} onChange={(e) => form.setStart(e.target.value)} required />
        </label>
        <label>
          Конец, с
          <input type="number" min={0} step={0.1} value={form.end} onChange={(e) => form.setEnd(e.target.value)} required />
        </label>
        <label className="grow">
          Комментарий
          <input value={form.comment} maxLength={2000} onChange={(e) => form.setComment(e.target.value)} />
        </label>
      </div>
      <div className="row">
        <label title="Видео той же камеры (другой день) с разметкой людей; пусто — проверка на блоках размеченного отрезка, не участвовавших в обучении">
          Проверить на видео №
          <input type="number" min={1} step={1} value={form.test.videoId} onChange={(e) => form.setTest({ ...form.test, videoId: e.target.value })} />
        </label>
        {form.test.videoId.trim() && (
          <>
            <label>
              с, с
              <input
                type="number"
                min={0}
                step={0.1}
                value={form.test.start}
                onChange={(e) => form.setTest({ ...form.test, start: e.target.value })}
                required
              />
            </label>
            <label>
              по, с
              <input type="number" min={0} step={0.1} value={form.test.end} onChange={(e) => form.setTest({ ...form.test, end: e.target.value })} required />
            </label>
          </>
        )}
        <label>
          Рабочее место
          <select value={form.workplaceId} onChange={(e) => form.setWorkplaceId(e.target.value)}>
            <option value="">— выберите —</option>
            {workplaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row">
        <label className="grow">
          Операции
          <select
            multiple
            value={form.operationIds.map(String)}
            onChange={(e) => form.setOperationIds(chosen(e.currentTarget))}
            size={Math.min(6, Math.max(3, operations.length))}
          >
            {operations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Области видео
          <select
            multiple
            value={form.areaIds.map(String)}
            onChange={(e) => form.setAreaIds(chosen(e.currentTarget))}
            size={Math.min(6, Math.max(3, areas.length))}
          >
            {areas.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label
        className="vision-check"
        title="Голова, локти и запястья людей в каждой области — признаки модели. Считает только сервер: подсказки в браузере у такой модели нет"
      >
        <input type="checkbox" checked={form.poses} onChange={(e) => form.setPoses(e.target.checked)} />
        Учитывать позы людей (только на сервере)
      </label>
      <button type="submit" className="button" disabled={form.busy}>
        Начать обучение
      </button>
    </form>
  );
}
