import type { OperationOption } from './OperationRows';
import type { MarkupRow } from '../../offline/markup-rows';
import { confidenceText, isModelRow } from './review';
import { TimeInput } from './TimeInput';
import { usePlayheadSeconds, type Playhead } from './playhead';

interface ModelReviewPanelProps {
  rows: readonly MarkupRow[];
  playhead: Playhead;
  /** The segment under review at a moment (selected, else under the playhead); null when none. */
  targetAt(seconds: number): MarkupRow | null;
  operations: OperationOption[];
  span: { from: number; to: number };
  onSpan(span: { from: number; to: number }): void;
  onReview(decision: 'accept' | 'reject', scope: 'segment' | 'span'): void;
}

/**
 * The model's layer under review (docs/vision.md «Слой модели»): how many segments wait, how sure
 * the model was, and accept / reject for one segment (V, X) or all of them in a span (Shift+V,
 * Shift+X). Shown only while the video has unreviewed segments.
 */
export function ModelReviewPanel({ rows, playhead, targetAt, operations, span, onSpan, onReview }: ModelReviewPanelProps) {
  // A few times a second is enough for «the segment under the playhead».
  const at = usePlayheadSeconds(playhead, 0.2);
  const layer = rows.filter(isModelRow);
  const target = layer.length ? targetAt(at) : null;
  if (layer.length === 0) return null;
  const inSpan = layer.filter((r) => r.start < span.to && r.end > span.from).length;
  const lowest = layer.reduce<MarkupRow | null>((low, r) => (low === null || (r.confidence ?? 1) < (low.confidence ?? 1) ? r : low), null);
  const name = (row: MarkupRow) => operations.find((o) => o.id === row.operation_id)?.name ?? 'операция не выбрана';
  return (
    <section className="card model-review" data-testid="model-review" aria-label="Проверка разметки модели">
      <p>
        <strong data-testid="model-review-count">Отрезков модели на проверке: {layer.length}</strong>
        <span className="muted"> — в отчёты не входят, пока вы их не примете. Решения записываются при сохранении (Ctrl+S).</span>
      </p>
      {lowest && (
        <p className="muted">
          Самая низкая уверенность: {confidenceText(lowest.confidence)} ({name(lowest)})
        </p>
      )}
      <p data-testid="model-review-target">
        {target ? (
          <>
            «{name(target)}», уверенность модели <strong data-testid="model-review-confidence">{confidenceText(target.confidence)}</strong>
          </>
        ) : (
          <span className="muted">Выберите отрезок модели (J, K или щелчок по строке) или поставьте на него курсор.</span>
        )}
      </p>
      <div className="row-actions">
        <button type="button" className="button small" disabled={!target} onClick={() => onReview('accept', 'segment')}>
          Принять отрезок (V)
        </button>
        <button type="button" className="button secondary small" disabled={!target} onClick={() => onReview('reject', 'segment')}>
          Отклонить отрезок (X)
        </button>
      </div>
      <div className="row-actions">
        <span>Отрезок проверки:</span>
        <TimeInput label="С" value={span.from} onCommit={(from) => onSpan({ ...span, from })} />
        <TimeInput label="По" value={span.to} onCommit={(to) => onSpan({ ...span, to })} />
        <span className="muted" data-testid="model-review-span-count">
          в нём отрезков модели: {inSpan}
        </span>
        <button type="button" className="button small" disabled={inSpan === 0} onClick={() => onReview('accept', 'span')}>
          Принять все (Shift+V)
        </button>
        <button type="button" className="button secondary small" disabled={inSpan === 0} onClick={() => onReview('reject', 'span')}>
          Отклонить все (Shift+X)
        </button>
      </div>
    </section>
  );
}
