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

/**
 * From per-step probabilities (rows × classes) to segments: hysteresis first (a class change
 * needs a clear lead, so near-ties do not flicker), then every segment shorter than the minimum
 * is merged, shortest first, into the neighbour whose class is more probable over its steps.
 */
export function smoothPredictions(probabilities: Float32Array, classes: number, options: SmoothingOptions): Segment[] {
  const rows = probabilities.length / classes;
  if (rows === 0) return [];
  const at = (r: number, c: number) => probabilities[r * classes + c]!;
  const labels = new Int32Array(rows);
  let current = 0;
  for (let c = 1; c < classes; c++) if (at(0, c) > at(0, current)) current = c;
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (at(r, c) > at(r, best)) best = c;
    if (best !== current && at(r, best) - at(r, current) >= options.hysteresis) current = best;
    labels[r] = current;
  }
  const segments = segmentsOf(labels);
  const support = (segment: Segment, label: number) => {
    let sum = 0;
    for (let r = segment.from; r < segment.to; r++) sum += at(r, label);
    return sum;
  };
  while (segments.length > 1) {
    let shortest = -1;
    for (let i = 0; i < segments.length; i++) {
      const length = segments[i]!.to - segments[i]!.from;
      if (length < options.minSegmentSteps && (shortest < 0 || length < segments[shortest]!.to - segments[shortest]!.from)) shortest = i;
    }
    if (shortest < 0) break;
    const segment = segments[shortest]!;
    const before = segments[shortest - 1];
    const after = segments[shortest + 1];
    const into = !before ? after! : !after ? before : support(segment, before.label) >= support(segment, after.label) ? before : after;
    segment.label = into.label;
    // Merge runs of the same class around the relabelled segment.
    let i = Math.max(0, shortest - 1);
    while (i < segments.length - 1 && i <= shortest + 1) {
      if (segments[i]!.label === segments[i + 1]!.label) {
        segments[i]!.to = segments[i + 1]!.to;
        segments.splice(i + 1, 1);
      } else i++;
    }
  }
  return segments;
}
