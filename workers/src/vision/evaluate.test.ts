import { describe, expect, it } from 'vitest';
import { blockRoles, evaluateLabels, roleRuns, segmentScores, StepRole } from './evaluate';

describe('honest evaluation (issue 25)', () => {
  it('splits a span into interleaved blocks: training, early stopping and test never share a step, and each spans the whole time', () => {
    const roles = blockRoles(1000, 5, true);
    const count = (role: number) => roles.filter((r) => r === role).length;
    expect(count(StepRole.Train) + count(StepRole.Validation) + count(StepRole.Test)).toBe(1000);
    expect(count(StepRole.Test)).toBe(200);
    expect(count(StepRole.Validation)).toBe(200);
    // Test steps in every fifth of the span, not one tail block.
    const runs = roleRuns(roles, StepRole.Test);
    expect(runs.length).toBe(4);
    expect(runs[0]![0]).toBeLessThan(250);
    expect(runs[runs.length - 1]![1]).toBeGreaterThan(750);
    const noTest = blockRoles(1000, 5, false);
    expect(noTest.filter((r) => r === StepRole.Test).length).toBe(0);
    expect(noTest.filter((r) => r === StepRole.Validation).length).toBe(200);
  });

  it('counts segments matched at IoU ≥ 0.5 and the edit score as an independent count says', () => {
    // Truth: 0×10, 1×10, 2×10. Prediction: 0×10, 1×4 (IoU 0.4: a miss and a false one), 2×16 (IoU 10/16 ≥ 0.5: a hit).
    const truth = [...Array(10).fill(0), ...Array(10).fill(1), ...Array(10).fill(2)];
    const predicted = [...Array(10).fill(0), ...Array(4).fill(1), ...Array(16).fill(2)];
    const scores = segmentScores([{ truth, predicted }], 3);
    expect(scores.perClass[0]).toEqual({ tp: 1, fp: 0, fn: 0, f1: 1 });
    expect(scores.perClass[1]).toEqual({ tp: 0, fp: 1, fn: 1, f1: 0 });
    expect(scores.perClass[2]).toEqual({ tp: 1, fp: 0, fn: 0, f1: 1 });
    // Same order of segments: edit score 100. A flicker turns 0,1,2 into 0,1,2,1,2: two insertions over five segments.
    expect(scores.editScore).toBe(100);
    const flicker = [...Array(10).fill(0), ...Array(5).fill(1), 2, ...Array(4).fill(1), ...Array(10).fill(2)];
    expect(segmentScores([{ truth, predicted: flicker }], 3).editScore).toBeCloseTo(100 * (1 - 2 / 5), 6);
  });

  it('scores the constant answer as such: every step one class', () => {
    const truth = [0, 0, 0, 1, 1, 2];
    const e = evaluateLabels(truth, new Array(6).fill(0), 3);
    expect(e.accuracy).toBeCloseTo(0.5, 6);
    expect(e.perClass[0]!.precision).toBeCloseTo(0.5, 6);
    expect(e.perClass[1]!.f1).toBe(0);
  });
});
