/** A run of steps [from, to) with one class. */
export interface Segment {
  label: number;
  from: number;
  to: number;
}

export interface SmoothingOptions {
  /** Segments shorter than this many steps are absorbed by a neighbour. */
  minSegmentSteps: number;
  /** The current class is left only when another is ahead of it by at least this probability. */
  hysteresis: number;
}

/** Runs of equal labels. */
export function segmentsOf(labels: ArrayLike<number>): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < labels.length; i++) {
    const last = out[out.length - 1];
    if (last && last.label === labels[i]) last.to = i + 1;
    else out.push({ label: labels[i]!, from: i, to: i + 1 });
  }
  return out;
}

/** A class that has just settled: its index and the step where its run began. */
export interface SettledClass {
  label: number;
  fromStep: number;
}

/**
 * The smoothing rule, one step at a time — the only place it is written. The applying job runs it
 * over a whole span (smoothPredictions) and the browser's live suggestion runs it as steps arrive
 * (pwa/src/ml/suggestion-follower.ts), so both say the same thing about the same probabilities:
 *
 * - hysteresis: the settled class is left only for one ahead of it by at least `hysteresis`
 *   (near-ties do not flicker);
 * - minimum segment: a new class settles only after holding `minSegmentSteps` steps in a row, and
 *   then from the step where its run began; a shorter run stays part of the settled class.
 *
 * `confidence` is the mean probability of the settled class over its segment so far — what the
 * job stores as a segment's confidence. Pure and free of Node: the PWA bundles it.
 */
export class IncrementalSmoother {
  private settledLabel: number | null = null;
  private candidate: { label: number; fromStep: number; steps: number; sum: number } | null = null;
  private next = 0;
  private sum = 0;
  private steps = 0;
  /** Recent settled changes: the last one at or before the decided step, and any after it. */
  private changes: SettledClass[] = [];

  constructor(private readonly options: SmoothingOptions) {}

  /** The settled class, or null until one has held the minimum segment. */
  get settled(): number | null {
    return this.settledLabel;
  }

  /** Mean probability of the settled class over its segment so far (0 before one settles). */
  get confidence(): number {
    return this.steps > 0 ? this.sum / this.steps : 0;
  }

  /**
   * The class of the step `minSegmentSteps − 1` steps back, which no later step can change: a run
   * that began at or before it has either settled or broken by now. It is exactly the class the
   * applying job gives that step. Null before that step exists or before any class has settled.
   */
  get decided(): { step: number; label: number } | null {
    const step = this.next - this.options.minSegmentSteps;
    if (step < 0 || this.changes.length === 0) return null;
    let label = this.changes[0]!.label;
    for (const change of this.changes) if (change.fromStep <= step) label = change.label;
    return { step, label };
  }

  /** Feeds the next step's class probabilities; answers the class that has just settled, if any. */
  push(probabilities: ArrayLike<number>): SettledClass | null {
    const step = this.next++;
    let best = 0;
    for (let c = 1; c < probabilities.length; c++) if (probabilities[c]! > probabilities[best]!) best = c;
    const current = this.settledLabel;
    const label = current === null || (best !== current && probabilities[best]! - probabilities[current]! >= this.options.hysteresis) ? best : current;
    if (current !== null) {
      this.sum += probabilities[current]!;
      this.steps++;
    }
    if (label === current) {
      this.candidate = null;
      return null;
    }
    if (this.candidate?.label === label) {
      this.candidate.steps++;
      this.candidate.sum += probabilities[label]!;
    } else this.candidate = { label, fromStep: step, steps: 1, sum: probabilities[label]! };
    if (this.candidate.steps < this.options.minSegmentSteps) return null;
    const change = { label, fromStep: this.candidate.fromStep };
    this.changes.push(change);
    const horizon = this.next - this.options.minSegmentSteps;
    while (this.changes.length > 1 && this.changes[1]!.fromStep <= horizon) this.changes.shift();
    this.settledLabel = label;
    this.sum = this.candidate.sum;
    this.steps = this.candidate.steps;
    this.candidate = null;
    return change;
  }

  /** Forgets everything (a seek): the next step is step 0 again. */
  reset() {
    this.settledLabel = null;
    this.candidate = null;
    this.next = 0;
    this.sum = 0;
    this.steps = 0;
    this.changes = [];
  }
}

/**
 * From per-step probabilities (rows × classes) to segments covering every step: the
 * IncrementalSmoother over the span, each settled class from the step its run began to the next
 * one's. Steps before the first class settles belong to it; a span too short for any class to
 * settle is one segment of the class most probable over it.
 */
export function smoothPredictions(probabilities: Float32Array, classes: number, options: SmoothingOptions): Segment[] {
  const rows = probabilities.length / classes;
  if (rows === 0) return [];
  const smoother = new IncrementalSmoother(options);
  const segments: Segment[] = [];
  for (let r = 0; r < rows; r++) {
    const change = smoother.push(probabilities.subarray(r * classes, (r + 1) * classes));
    if (!change) continue;
    const last = segments[segments.length - 1];
    if (last) last.to = change.fromStep;
    segments.push({ label: change.label, from: last ? change.fromStep : 0, to: rows });
  }
  if (segments.length === 0) {
    const sums = new Float64Array(classes);
    for (let r = 0; r < rows; r++) for (let c = 0; c < classes; c++) sums[c]! += probabilities[r * classes + c]!;
    let best = 0;
    for (let c = 1; c < classes; c++) if (sums[c]! > sums[best]!) best = c;
    segments.push({ label: best, from: 0, to: rows });
  }
  return segments;
}
