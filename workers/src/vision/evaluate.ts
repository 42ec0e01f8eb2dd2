import { seededRandom } from '../random';
import { argmaxRows, predict, type Classifier } from './classifier';
import type { FeatureMatrix } from './features';

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  /** Steps of this class in the truth. */
  support: number;
}

export interface Evaluation {
  perClass: ClassMetrics[];
  /** confusion[truth][predicted], in steps. */
  confusion: number[][];
  accuracy: number;
  steps: number;
}

/** Precision, recall and F1 per class, the confusion matrix and accuracy of predicted against true labels. */
export function evaluateLabels(truth: ArrayLike<number>, predicted: ArrayLike<number>, classes: number): Evaluation {
  const confusion = Array.from({ length: classes }, () => new Array<number>(classes).fill(0));
  let correct = 0;
  for (let i = 0; i < truth.length; i++) {
    confusion[truth[i]!]![predicted[i]!]!++;
    if (truth[i] === predicted[i]) correct++;
  }
  const perClass = confusion.map((row, c) => {
    const tp = row[c]!;
    const support = row.reduce((a, b) => a + b, 0);
    const predictedCount = confusion.reduce((sum, r) => sum + r[c]!, 0);
    const precision = predictedCount > 0 ? tp / predictedCount : 0;
    const recall = support > 0 ? tp / support : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    return { precision, recall, f1, support };
  });
  return { perClass, confusion, accuracy: truth.length > 0 ? correct / truth.length : 0, steps: truth.length };
}

export interface FeatureImportance {
  feature: number;
  /** Accuracy lost on the held-out rows when this feature's column is shuffled. */
  drop: number;
}

/**
 * Permutation importance on rows [from, to): each feature column is shuffled (seeded) in turn and
 * the fall in accuracy recorded; sorted, largest first.
 */
export function permutationImportance(model: Classifier, x: FeatureMatrix, labels: Int32Array, from: number, to: number, seed = 7): FeatureImportance[] {
  const rows = to - from;
  if (rows <= 1) return [];
  const slice: FeatureMatrix = { rows, columns: x.columns, data: x.data.slice(from * x.columns, to * x.columns) };
  const truth = labels.subarray(from, to);
  const accuracy = (m: FeatureMatrix) => {
    const predicted = argmaxRows(predict(model, m), model.classes);
    let correct = 0;
    for (let i = 0; i < rows; i++) if (predicted[i] === truth[i]) correct++;
    return correct / rows;
  };
  const base = accuracy(slice);
  const random = seededRandom(seed);
  const out: FeatureImportance[] = [];
  const column = new Float32Array(rows);
  for (let f = 0; f < x.columns; f++) {
    for (let r = 0; r < rows; r++) column[r] = slice.data[r * x.columns + f]!;
    const shuffled = column.slice();
    for (let i = rows - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    for (let r = 0; r < rows; r++) slice.data[r * x.columns + f] = shuffled[r]!;
    out.push({ feature: f, drop: base - accuracy(slice) });
    for (let r = 0; r < rows; r++) slice.data[r * x.columns + f] = column[r]!;
  }
  return out.sort((a, b) => b.drop - a.drop || a.feature - b.feature);
}

/** What a step is for in training: fitting, early stopping, or the reported test. */
export const StepRole = { Train: 0, Validation: 1, Test: 2 } as const;
export type StepRole = (typeof StepRole)[keyof typeof StepRole];

/**
 * Splits a span's steps into interleaved blocks (about a tenth of the span, 1–10 s) so every role
 * sees every part of the span — one contiguous tail often holds a single class. In each run of
 * five blocks: three train, one validation (early stopping), one test (the report); without a test
 * set of its own (tested on another video) four train and one validation. Validation and test are
 * never the same steps.
 */
export function blockRoles(rows: number, fps: number, withTest: boolean): Uint8Array {
  const block = Math.max(fps, Math.min(10 * fps, Math.floor(rows / 10)));
  const pattern = withTest
    ? [StepRole.Train, StepRole.Validation, StepRole.Train, StepRole.Test, StepRole.Train]
    : [StepRole.Train, StepRole.Train, StepRole.Validation, StepRole.Train, StepRole.Train];
  const roles = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) roles[r] = pattern[Math.floor(r / block) % pattern.length]!;
  return roles;
}

/** Runs of consecutive steps with the given role: [from, to). */
export function roleRuns(roles: Uint8Array, role: StepRole): [number, number][] {
  const runs: [number, number][] = [];
  for (let r = 0; r < roles.length; r++) {
    if (roles[r] !== role) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === r) last[1] = r + 1;
    else runs.push([r, r + 1]);
  }
  return runs;
}

export interface SegmentScores {
  /** Per class: segments matched at IoU ≥ 0.5, predicted ones not matched, true ones missed; F1 of those. */
  perClass: { tp: number; fp: number; fn: number; f1: number }[];
  /** 100 × (1 − normalised Levenshtein distance between the true and predicted segment sequences), averaged over runs by length. */
  editScore: number;
}

const runsOf = (labels: ArrayLike<number>) => {
  const out: { label: number; from: number; to: number }[] = [];
  for (let i = 0; i < labels.length; i++) {
    const last = out[out.length - 1];
    if (last && last.label === labels[i]) last.to = i + 1;
    else out.push({ label: labels[i]!, from: i, to: i + 1 });
  }
  return out;
};

function levenshtein(a: number[], b: number[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Segment-level scores over contiguous runs of steps (truth and smoothed prediction per run): a
 * predicted segment is a hit when it overlaps a not yet matched true segment of its class with
 * IoU ≥ 0.5 (the usual F1@50 of action segmentation), and the edit score compares the order of
 * segments regardless of their lengths.
 */
export function segmentScores(runs: { truth: ArrayLike<number>; predicted: ArrayLike<number> }[], classes: number): SegmentScores {
  const counts = Array.from({ length: classes }, () => ({ tp: 0, fp: 0, fn: 0 }));
  let editWeighted = 0;
  let steps = 0;
  for (const run of runs) {
    const truth = runsOf(run.truth);
    const predicted = runsOf(run.predicted);
    const used = new Set<number>();
    for (const p of predicted) {
      let hit = -1;
      for (let t = 0; t < truth.length; t++) {
        const s = truth[t]!;
        if (used.has(t) || s.label !== p.label) continue;
        const overlap = Math.min(s.to, p.to) - Math.max(s.from, p.from);
        if (overlap > 0 && overlap / (Math.max(s.to, p.to) - Math.min(s.from, p.from)) >= 0.5) {
          hit = t;
          break;
        }
      }
      if (hit >= 0) {
        used.add(hit);
        counts[p.label]!.tp++;
      } else counts[p.label]!.fp++;
    }
    truth.forEach((s, t) => {
      if (!used.has(t)) counts[s.label]!.fn++;
    });
    const a = truth.map((s) => s.label);
    const b = predicted.map((s) => s.label);
    const edit = 100 * (1 - levenshtein(a, b) / Math.max(1, a.length, b.length));
    editWeighted += edit * run.truth.length;
    steps += run.truth.length;
  }
  return {
    perClass: counts.map((c) => ({ ...c, f1: c.tp + c.fp + c.fn > 0 ? (2 * c.tp) / (2 * c.tp + c.fp + c.fn) : 0 })),
    editScore: steps > 0 ? editWeighted / steps : 0,
  };
}
