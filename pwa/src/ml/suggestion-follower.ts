/** A settled change of the suggested class: the class and the video second its run began. */
export interface SettledSuggestion {
  classIndex: number;
  onsetSecond: number;
}

export interface FollowerOptions {
  /** Steps a new class must hold before it counts (the applying job's minimum segment). */
  minSteps: number;
  /** The settled class is left only for one ahead of it by at least this probability. */
  hysteresis: number;
  /** Seconds between steps (1 / the model's fps). */
  stepSeconds: number;
}

/**
 * Live playback's version of the applying job's smoothing (workers/src/vision/smoothing.ts): the
 * same hysteresis and minimum segment, applied as the steps arrive, so a suggestion is followed
 * only once it has settled — and then from the step where it began, not from when it settled.
 * A seek or a gap of skipped steps starts over.
 */
export class SuggestionFollower {
  private settled: number | null = null;
  private candidate: { classIndex: number; onsetSecond: number; steps: number } | null = null;
  private lastSecond = -Infinity;

  constructor(private readonly options: FollowerOptions) {}

  /** Feeds one step; answers the change when a new class has just settled. */
  push(second: number, probabilities: ArrayLike<number>): SettledSuggestion | null {
    const { minSteps, hysteresis, stepSeconds } = this.options;
    if (second < this.lastSecond || second - this.lastSecond > 2.5 * stepSeconds) this.reset();
    this.lastSecond = second;
    let best = 0;
    for (let i = 1; i < probabilities.length; i++) if (probabilities[i]! > probabilities[best]!) best = i;
    const current = this.settled;
    const label = current === null || (best !== current && probabilities[best]! - probabilities[current]! >= hysteresis) ? best : current;
    if (label === current) {
      this.candidate = null;
      return null;
    }
    if (this.candidate?.classIndex === label) this.candidate.steps++;
    else this.candidate = { classIndex: label, onsetSecond: second, steps: 1 };
    if (this.candidate.steps < minSteps) return null;
    const change = { classIndex: label, onsetSecond: this.candidate.onsetSecond };
    this.settled = label;
    this.candidate = null;
    return change;
  }

  reset() {
    this.settled = null;
    this.candidate = null;
    this.lastSecond = -Infinity;
  }
}
