import { argmaxRows, predict, seededRandom, type Classifier } from './classifier';
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
