import { TableHead } from '../../ui/TableHead';
import { useState } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import type { NamedItem, VideoArea, VisionModel } from '../../api/types';
import { formatDateTime } from '../../format/time';
import { login } from '../../state/login';
import { pct } from '../reports/format';

interface ModelsTableProps {
  models: VisionModel[];
  operations: NamedItem[];
  areas: VideoArea[];
  canWrite: boolean;
  onApply(model: VisionModel): void;
  onDelete(model: VisionModel): void;
  /** Cancels the model's queued or running training or applying job (POST /api/v1/jobs/{id}/cancel). */
  onCancel(model: VisionModel, jobId: number): void;
}

const STATUS_TEXT: Record<VisionModel['meta']['status'], string> = {
  queued: 'в очереди',
  training: 'обучается',
  trained: 'обучена',
  failed: 'ошибка',
  cancelled: 'обучение отменено',
};
const APPLY_TEXT = {
  queued: 'применение в очереди',
  running: 'применяется',
  success: 'применена',
  failed: 'применение не удалось',
  cancelled: 'применение отменено',
} as const;

/** The job a «Отменить» button stops: the training while it waits or runs, else the applying. */
function cancellableJob({ meta }: VisionModel): number | null {
  if ((meta.status === 'queued' || meta.status === 'training') && meta.job_id !== null) return meta.job_id;
  if ((meta.apply_status === 'queued' || meta.apply_status === 'running') && meta.apply_job_id !== null) return meta.apply_job_id;
  return null;
}

type CancelQuestion = { modelId: number; jobId: number; training: boolean };

/** A model row's buttons: «Отменить» its running job (asked first), «Применить» a stored model, delete. */
function ModelActions({
  model,
  asking,
  onAsk,
  onApply,
  onDelete,
  onCancel,
}: Pick<ModelsTableProps, 'onApply' | 'onDelete' | 'onCancel'> & {
  model: VisionModel;
  asking: CancelQuestion | null;
  onAsk(question: CancelQuestion | null): void;
}) {
  const { meta } = model;
  const stored = Boolean(meta.object_storage_key);
  const cancelJob = cancellableJob(model);
  return (
    <span className="row-actions">
      {asking ? (
        <span className="confirm">
          Отменить {asking.training ? 'обучение' : 'применение'} модели {meta.id}?
          <button
            type="button"
            className="button danger small"
            onClick={() => {
              onAsk(null);
              onCancel(model, asking.jobId);
            }}
          >
            Да, отменить
          </button>
          <button type="button" className="button secondary small" onClick={() => onAsk(null)}>
            Нет
          </button>
        </span>
      ) : (
        cancelJob !== null && (
          <button
            type="button"
            className="button secondary small"
            onClick={() => onAsk({ modelId: meta.id, jobId: cancelJob, training: cancelJob === meta.job_id })}
          >
            Отменить
          </button>
        )
      )}
      {stored && (
        <button type="button" className="button small" onClick={() => onApply(model)}>
          Применить
        </button>
      )}
      <ConfirmButton question={`Удалить модель ${meta.id}?`} onConfirm={() => onDelete(model)} />
    </span>
  );
}

/** The models of the camera (spec 02 «Model training screen»): progress, key, choices, times, apply, delete and cancelling a running job. */
export function ModelsTable({ models, operations, areas, canWrite, onApply, onDelete, onCancel }: ModelsTableProps) {
  const { timeZone } = useSnapshot(login);
  // The job asked about stays asked about while the table refreshes: if it finished meanwhile, «Да» says so.
  const [confirmingCancel, setConfirmingCancel] = useState<CancelQuestion | null>(null);
  const nameOf = (list: { id: number; name: string }[], id: number) => list.find((x) => x.id === id)?.name ?? `№ ${id}`;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, timeZone) : '—');
  return (
    <div className="table-scroll fit-scope">
      <table className="data-table compact fit-table fit-auto stack-early vision-models" data-testid="models-table">
        <TableHead titles={['№', 'Название', 'Комментарий', 'Ход обучения', 'Ключ модели', 'Рабочее место', 'Операции', 'Области', 'Обучена / применена']} />
        <tbody>
          {models.length === 0 && (
            <tr>
              <td colSpan={10} className="muted">
                Моделей этой камеры пока нет.
              </td>
            </tr>
          )}
          {models.map(({ meta, workplace_name }) => {
            const stored = Boolean(meta.object_storage_key);
            const asking = confirmingCancel?.modelId === meta.id ? confirmingCancel : null;
            const percent = Math.max(0, Math.min(100, meta.completion_percentage));
            return (
              <tr key={meta.id} data-testid="model-row" data-model-id={meta.id} data-stored={stored}>
                <td data-label="№">{meta.id}</td>
                <td data-label="Название">
                  <Link href={`/model/${meta.id}`}>{meta.name}</Link>
                </td>
                <td data-label="Комментарий">{meta.comment}</td>
                <td data-label="Ход обучения">
                  <div
                    className={`vision-progress ${stored ? 'success' : 'info'}`}
                    role="progressbar"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    aria-label={`Ход обучения модели ${meta.id}`}
                    data-testid="model-progress"
                  >
                    <div style={{ width: `${percent}%` }} />
                    <span>{pct(percent)}</span>
                  </div>
                  <small className="muted">{STATUS_TEXT[meta.status]}</small>
                  {meta.error && <small className="field-error">{meta.error}</small>}
                </td>
                <td className="vision-key" data-label="Ключ модели">
                  {meta.object_storage_key ?? '—'}
                </td>
                <td data-label="Рабочее место">{workplace_name ?? '—'}</td>
                <td data-label="Операции">{meta.operation_ids.map((id) => nameOf(operations, id)).join(', ')}</td>
                <td data-label="Области">{meta.video_area_ids.map((id) => nameOf(areas, id)).join(', ')}</td>
                <td data-label="Обучена / применена">
                  {when(meta.trained_at)} / {when(meta.applied_at)}
                  {meta.apply_status && (
                    <small className={meta.apply_status === 'failed' ? 'field-error' : 'muted'} data-testid="apply-status">
                      {APPLY_TEXT[meta.apply_status]}
                      {meta.apply_status === 'running' && meta.apply_progress !== null ? ` ${pct(meta.apply_progress)}` : ''}
                      {meta.apply_error ? `: ${meta.apply_error}` : ''}
                    </small>
                  )}
                  {meta.apply_message && (
                    <small className="muted" data-testid="apply-message">
                      {meta.apply_message}
                    </small>
                  )}
                </td>
                <td className="fit-actions">
                  {canWrite && (
                    <ModelActions
                      model={{ meta, workplace_name }}
                      asking={asking}
                      onAsk={setConfirmingCancel}
                      onApply={onApply}
                      onDelete={onDelete}
                      onCancel={onCancel}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
