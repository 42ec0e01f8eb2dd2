import { munkres } from 'munkres';
import { iou } from '../vision/movenet-decode';
import type { Box } from './kalman';

export interface Assignment {
  /** [row, column] pairs. */
  pairs: [number, number][];
  /** Rows and columns left unmatched. */
  rows: number[];
  cols: number[];
}

/**
 * Optimal assignment (Hungarian method, the munkres package) of rows to columns by similarity:
 * the pairs maximise Σ (similarity − minSimilarity) over pairs with similarity ≥ minSimilarity —
 * the semantics of ByteTrack's `lapjv(…, cost_limit)`: a pair is made only when it beats leaving
 * both sides unmatched. The matrix is padded with one «unmatched» column per row and one
 * «unmatched» row per column. Greedy matching is not used: two people close together swap
 * identities under it when the best pair for one is the second-best for the other.
 * `colCount` is needed when there are no rows (an empty matrix has no row to count columns in).
 */
export function assignBy(similarity: number[][], minSimilarity: number, colCount = similarity[0]?.length ?? 0): Assignment {
  const rowCount = similarity.length;
  const pairs: [number, number][] = [];
  if (rowCount && colCount) {
    const n = rowCount + colCount;
    const largest = Math.max(1, ...similarity.flat().map(Math.abs), Math.abs(minSimilarity));
    const forbidden = 4 * n * (largest + 1);
    // A hair below the limit so that a pair exactly at minSimilarity is still made.
    const unmatched = -minSimilarity / 2 + 1e-9 * largest;
    const cost: number[][] = Array.from({ length: n }, (_, r) =>
      Array.from({ length: n }, (_, c) => {
        if (r < rowCount && c < colCount) return similarity[r]![c]! >= minSimilarity ? -similarity[r]![c]! : forbidden;
        if (r < rowCount) return c - colCount === r ? unmatched : forbidden;
        if (c < colCount) return r - rowCount === c ? unmatched : forbidden;
        return 0;
      }),
    );
    for (const [r, c] of munkres(cost)) if (r < rowCount && c < colCount && similarity[r]![c]! >= minSimilarity) pairs.push([r, c]);
  }
  const matchedRows = new Set(pairs.map((p) => p[0]));
  const matchedCols = new Set(pairs.map((p) => p[1]));
  return {
    pairs,
    rows: [...Array(rowCount).keys()].filter((r) => !matchedRows.has(r)),
    cols: [...Array(colCount).keys()].filter((c) => !matchedCols.has(c)),
  };
}

/** Rows (e.g. tracks) to columns (detections) by box overlap, pairs only at IoU ≥ minIou. */
export function assignByIou(rows: Box[], cols: Box[], minIou: number): Assignment {
  return assignBy(
    rows.map((r) => cols.map((c) => iou(r, c))),
    minIou,
    cols.length,
  );
}
