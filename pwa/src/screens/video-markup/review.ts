import type { MarkupRow } from '../../offline/markup-rows';
import type { MarkupSession } from './session';

/**
 * Reviewing the model's layer (docs/vision.md «Слой модели»): its segments do not count in any
 * report until a person accepts them. Accepting turns a segment into the person's own row
 * (source 'manual' here; the server records the reviewer when it is saved); rejecting deletes it.
 * Both are ordinary undoable edits that travel with the next save.
 */

export const isModelRow = (row: MarkupRow) => row.source === 'model';

/** The model's segments that overlap [from, to), in time order. */
export const modelRowsIn = (rows: readonly MarkupRow[], from: number, to: number) => rows.filter((r) => isModelRow(r) && r.start < to && r.end > from);

/** The model segment to review now: the selected one, else the one under the playhead. */
export function reviewTarget(session: MarkupSession, at: number): MarkupRow | null {
  const selected = session.selectedKey ? session.row(session.selectedKey) : null;
  if (selected && isModelRow(selected)) return selected;
  return session.rows.find((r) => isModelRow(r) && r.start <= at && at < r.end) ?? null;
}

/** The first model segment after `row` (in time order), for reviewing one after another. */
export function nextModelRow(rows: readonly MarkupRow[], row: MarkupRow): MarkupRow | null {
  return rows.find((r) => isModelRow(r) && r.key !== row.key && (r.start > row.start || (r.start === row.start && r.key > row.key))) ?? null;
}

export function acceptModelRows(session: MarkupSession, rows: readonly MarkupRow[], label = 'Принять отрезки модели') {
  session.apply(
    label,
    rows.filter(isModelRow).map((before) => ({ key: before.key, before, after: { ...before, source: 'manual' as const } })),
  );
}

export function rejectModelRows(session: MarkupSession, rows: readonly MarkupRow[], label = 'Отклонить отрезки модели') {
  session.apply(
    label,
    rows.filter(isModelRow).map((before) => ({ key: before.key, before, after: null })),
  );
}

/** Share as a whole percent, the way the screen shows a model's confidence. */
export const confidenceText = (confidence: number | null | undefined) => (confidence == null ? '—' : `${Math.round(confidence * 100)} %`);
