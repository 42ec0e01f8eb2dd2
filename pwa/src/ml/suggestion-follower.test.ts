import { describe, expect, it } from 'vitest';
import { smoothPredictions } from '../../../workers/src/vision/smoothing';
import { SuggestionFollower } from './suggestion-follower';

const STEP = 0.2;
const follower = () => new SuggestionFollower({ minSteps: 5, hysteresis: 0.15, stepSeconds: STEP });
/** One step's probabilities with `label` ahead by `lead`. */
const row = (label: number, lead = 0.6, classes = 3) =>
  Array.from({ length: classes }, (_, i) => (i === label ? (1 + lead * (classes - 1)) / classes : (1 - lead) / classes));

function follow(labels: number[], lead?: number[]) {
  const f = follower();
  const changes = [];
  for (let i = 0; i < labels.length; i++) {
    const change = f.push(10 + i * STEP, row(labels[i]!, lead?.[i]));
    if (change) changes.push(change);
  }
  return changes;
}

describe('following live suggestions', () => {
  it('reports a class once it has held the minimum segment, from the second its run began', () => {
    const labels = [...Array(8).fill(1), ...Array(7).fill(2)];
    const changes = follow(labels);
    expect(changes.map((c) => c.classIndex)).toEqual([1, 2]);
    expect(changes[0]!.onsetSecond).toBeCloseTo(10);
    expect(changes[1]!.onsetSecond).toBeCloseTo(10 + 8 * STEP);
  });

  it('ignores a run shorter than the minimum and a near-tie (hysteresis), as the applying job does', () => {
    const flicker = [...Array(6).fill(1), 2, 2, 2, ...Array(6).fill(1)];
    expect(follow(flicker).map((c) => c.classIndex)).toEqual([1]);
    const nearTie = [...Array(6).fill(1), ...Array(6).fill(2)];
    const leads = [...Array(6).fill(0.6), ...Array(6).fill(0.05)];
    expect(follow(nearTie, leads).map((c) => c.classIndex)).toEqual([1]);
  });

  it('settles on the segments the applying job finds for the same steps', () => {
    const labels = [...Array(10).fill(0), ...Array(12).fill(1), 2, 2, ...Array(9).fill(1), ...Array(15).fill(2), ...Array(8).fill(0)];
    const probabilities = new Float32Array(labels.flatMap((l) => row(l)));
    const segments = smoothPredictions(probabilities, 3, { minSegmentSteps: 5, hysteresis: 0.15 });
    const changes = follow(labels);
    expect(changes.map((c) => c.classIndex)).toEqual(segments.map((s) => s.label));
    expect(changes.map((c) => Math.round((c.onsetSecond - 10) / STEP))).toEqual(segments.map((s) => s.from));
  });

  it('starts over after a seek back or skipped steps', () => {
    const f = follower();
    for (let i = 0; i < 6; i++) f.push(10 + i * STEP, row(1));
    // Back to second 2: the same class settles again, from there.
    const again = [];
    for (let i = 0; i < 5; i++) again.push(f.push(2 + i * STEP, row(1)));
    expect(again.filter(Boolean)).toEqual([{ classIndex: 1, onsetSecond: 2 }]);
    // A jump of 3 s forward: a fresh start too.
    const jumped = [];
    for (let i = 0; i < 5; i++) jumped.push(f.push(6 + i * STEP, row(1)));
    expect(jumped.filter(Boolean)).toHaveLength(1);
  });
});
