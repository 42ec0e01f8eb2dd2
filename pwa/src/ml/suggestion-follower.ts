import { withUncertainClass } from '../../../workers/src/vision/classifier';
import { IncrementalSmoother } from '../../../workers/src/vision/smoothing';

/**
 * Below this confidence the live suggestion stays quiet (shows no operation): a guess the model
 * itself is not sure of costs the assessor more than silence.
 */
export const SUGGESTION_MIN_CONFIDENCE = 0.5;

/**
 * One live step as the applying job smooths it: the classes' probabilities and «не уверена» last
 * (classifier.ts withUncertainClass, the job's own function). The follower's class index
 * `probabilities.length` is then «не уверена» — never an operation, as in the job.
 */
export function smoothedStep(probabilities: Float32Array, uncertain: boolean): Float32Array {
  return withUncertainClass(probabilities, probabilities.length, Uint8Array.of(uncertain ? 1 : 0));
}

/** A settled change of the suggested class: the class and the video second its run began. */
export interface SettledSuggestion {
  classIndex: number;
  onsetSecond: number;
}

/** What the live suggestion says now: the settled class and the model's confidence in it. */
export interface CurrentSuggestion {
  classIndex: number;
  /** Mean probability of the class over its segment so far (as the applying job's `confidence`). */
  confidence: number;
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
 * Live playback's side of the applying job's smoothing: the same IncrementalSmoother
 * (workers/src/vision/smoothing.ts — one module for both), fed the steps as they arrive, with
 * video seconds in place of step numbers. A seek back or a gap of skipped steps starts it over.
 */
export class SuggestionFollower {
  private readonly smoother: IncrementalSmoother;
  /** Seconds of the latest steps (a new class settles at most minSteps back), and how many steps came since the start. */
  private recent: number[] = [];
  private steps = 0;
  private lastSecond = -Infinity;
  private onsetSecond = 0;

  constructor(private readonly options: FollowerOptions) {
    this.smoother = new IncrementalSmoother({ minSegmentSteps: options.minSteps, hysteresis: options.hysteresis });
  }

  /** Feeds one step; answers the change when a new class has just settled. */
  push(second: number, probabilities: ArrayLike<number>): SettledSuggestion | null {
    const { stepSeconds } = this.options;
    if (second < this.lastSecond || second - this.lastSecond > 2.5 * stepSeconds) this.reset();
    this.lastSecond = second;
    this.recent.push(second);
    if (this.recent.length > this.options.minSteps + 1) this.recent.shift();
    this.steps++;
    const change = this.smoother.push(probabilities);
    if (!change) return null;
    this.onsetSecond = this.recent[change.fromStep - (this.steps - this.recent.length)] ?? second;
    return { classIndex: change.label, onsetSecond: this.onsetSecond };
  }

  /**
   * What the applying job writes for the step minSteps − 1 steps back (its class can no longer
   * change), with that step's second and the model's confidence: the live suggestion shows this,
   * a fraction of a second later than the raw step, and never flickers. Null until known.
   */
  get decided(): { classIndex: number; confidence: number; second: number } | null {
    const decided = this.smoother.decided;
    const second = this.recent[this.recent.length - this.options.minSteps];
    if (!decided || second === undefined) return null;
    return { classIndex: decided.label, confidence: this.smoother.confidence, second };
  }

  /** The settled suggestion, or null before a class has settled. */
  get current(): CurrentSuggestion | null {
    const classIndex = this.smoother.settled;
    return classIndex === null ? null : { classIndex, confidence: this.smoother.confidence, onsetSecond: this.onsetSecond };
  }

  reset() {
    this.smoother.reset();
    this.recent = [];
    this.steps = 0;
    this.lastSecond = -Infinity;
  }
}
