import type { MarkupRow } from '../../offline/markup-rows';

export interface BudgetLine {
  operationId: number;
  occurrences: number;
  totalSeconds: number;
  meanSeconds: number;
  /** Sample standard deviation; 0 with fewer than two occurrences. */
  sdSeconds: number;
  /** Share of the video's duration, percent. */
  sharePercent: number;
}

/** BORIS-style time budget of the open video: per operation, count, total, mean, sd and share (clipped to the video). */
export function timeBudget(rows: readonly MarkupRow[], durationSeconds: number): BudgetLine[] {
  const byOperation = new Map<number, number[]>();
  for (const row of rows) {
    // The model's unreviewed layer is not the video's time yet (docs/vision.md «Слой модели»).
    if (row.source === 'model') continue;
    // Only the part inside this video counts: an operation may run on into the next file.
    const seconds = Math.min(row.end, durationSeconds) - Math.max(row.start, 0);
    if (row.operation_id === null || !(seconds > 0)) continue;
    const list = byOperation.get(row.operation_id) ?? [];
    list.push(seconds);
    byOperation.set(row.operation_id, list);
  }
  return [...byOperation.entries()]
    .map(([operationId, durations]) => {
      const n = durations.length;
      const total = durations.reduce((a, b) => a + b, 0);
      const mean = total / n;
      const variance = n > 1 ? durations.reduce((acc, d) => acc + (d - mean) ** 2, 0) / (n - 1) : 0;
      return {
        operationId,
        occurrences: n,
        totalSeconds: total,
        meanSeconds: mean,
        sdSeconds: Math.sqrt(variance),
        sharePercent: durationSeconds > 0 ? (total / durationSeconds) * 100 : 0,
      };
    })
    .sort((a, b) => b.totalSeconds - a.totalSeconds);
}
