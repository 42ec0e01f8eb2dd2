import { describe, expect, it } from 'vitest';
import { smoothPredictions } from '../../../workers/src/vision/smoothing';
import { smoothedStep, SuggestionFollower } from './suggestion-follower';

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

  it('agrees with the applying job step for step on noisy probabilities (one smoothing module)', () => {
    // A seeded random walk over 4 classes: flickers, near-ties and short runs everywhere.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const classes = 4;
    const steps = 600;
    const probabilities = new Float32Array(steps * classes);
    let leader = 1;
    for (let r = 0; r < steps; r++) {
      if (random() < 0.12) leader = Math.floor(random() * classes);
      let sum = 0;
      for (let c = 0; c < classes; c++) sum += probabilities[r * classes + c] = random() + (c === leader ? 1.2 * random() : 0);
      for (let c = 0; c < classes; c++) probabilities[r * classes + c]! /= sum;
    }
    const segments = smoothPredictions(probabilities, classes, { minSegmentSteps: 5, hysteresis: 0.15 });
    const f = follower();
    let agree = 0;
    let settled = 0;
    for (let r = 0; r < steps; r++) {
      f.push(10 + r * STEP, probabilities.subarray(r * classes, (r + 1) * classes));
      const current = f.current;
      if (!current) continue;
      settled++;
      // Live knows a segment only once it has settled; by the segment's end the two must agree.
      const job = segments.find((s) => r >= s.from && r < s.to)!;
      if (current.classIndex === job.label || r - job.from < 5) agree++;
      expect(current.confidence).toBeGreaterThan(0);
      expect(current.confidence).toBeLessThanOrEqual(1);
    }
    expect(settled).toBeGreaterThan(steps * 0.9);
    expect(agree).toBe(settled);
  });

  it('shows for every decided step exactly the class the applying job gives it', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const classes = 3;
    const steps = 500;
    const probabilities = new Float32Array(steps * classes);
    let leader = 0;
    for (let r = 0; r < steps; r++) {
      if (random() < 0.1) leader = Math.floor(random() * classes);
      let sum = 0;
      for (let c = 0; c < classes; c++) sum += probabilities[r * classes + c] = random() + (c === leader ? random() : 0);
      for (let c = 0; c < classes; c++) probabilities[r * classes + c]! /= sum;
    }
    const job = new Int32Array(steps);
    for (const s of smoothPredictions(probabilities, classes, { minSegmentSteps: 5, hysteresis: 0.15 })) job.fill(s.label, s.from, s.to);
    const f = follower();
    let decided = 0;
    for (let r = 0; r < steps; r++) {
      f.push(10 + r * STEP, probabilities.subarray(r * classes, (r + 1) * classes));
      const shown = f.decided;
      if (!shown) continue;
      decided++;
      const step = Math.round((shown.second - 10) / STEP);
      expect(step).toBe(r - 4);
      expect(shown.classIndex, `step ${step}`).toBe(job[step]);
    }
    expect(decided).toBeGreaterThan(steps * 0.9);
  });

  it('reports the mean probability of the settled class as its confidence, as the job stores it', () => {
    const f = follower();
    for (let i = 0; i < 10; i++) f.push(10 + i * STEP, row(1, i < 5 ? 0.6 : 0.3));
    const p = (lead: number) => (1 + lead * 2) / 3;
    expect(f.current!.classIndex).toBe(1);
    expect(f.current!.confidence).toBeCloseTo((5 * p(0.6) + 5 * p(0.3)) / 10, 5);
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

  it('«не уверена» steps settle as their own class, never an operation; without them it follows as before (issue 43)', () => {
    const labels = [...Array(8).fill(1), ...Array(10).fill(2), ...Array(8).fill(1)];
    // Steps 8–17 are «не уверена» (the model never saw that work) though the softmax says 2.
    const run = (uncertainFrom: number, uncertainTo: number) => {
      const f = follower();
      const shown: number[] = [];
      const changes = [];
      for (let i = 0; i < labels.length; i++) {
        const change = f.push(10 + i * STEP, smoothedStep(Float32Array.from(row(labels[i]!)), i >= uncertainFrom && i < uncertainTo));
        if (change) changes.push(change.classIndex);
        if (f.decided) shown.push(f.decided.classIndex);
      }
      return { changes, shown };
    };
    const uncertain = run(8, 18);
    expect(uncertain.changes).toEqual([1, 3, 1]);
    expect(uncertain.shown).toContain(3);
    expect(uncertain.shown).not.toContain(2);
    // No «не уверена» step (a model without novelty statistics): the extra class never wins.
    const plain = run(0, 0);
    expect(plain.changes).toEqual(follow(labels).map((c) => c.classIndex));
    expect(plain.changes).toEqual([1, 2, 1]);
  });
});
