import { describe, expect, it } from 'vitest';
import { VTEST_MISSING, vtestFixture, vtestFrames } from '../../../tests/support/vtest';
import { matchFrame, precisionRecall } from './detection-metrics';
import { decodeMoveNet, mergeOverlapping, movenetInputSize, stripTiles } from './movenet-decode';
import { moveNetPeople } from './movenet';

/**
 * The pretrained person detector on real footage (issue 25, docs/vision.md «Детектор людей»):
 * MoveNet multipose on 32 frames of vtest.avi whose people were boxed by hand
 * (tests/fixtures/vtest-people.json). Precision and recall at IoU 0.5 must reach 0.9 and 0.95.
 */
describe.skipIf(VTEST_MISSING)('MoveNet on hand-labelled frames of vtest.avi', () => {
  it('finds the people (precision ≥ 0.9, recall ≥ 0.95 at IoU 0.5) with upright poses', async () => {
    const fixture = vtestFixture();
    expect(fixture.frames.length).toBeGreaterThanOrEqual(30);
    const input = movenetInputSize(fixture.width, fixture.height);
    const frames = await vtestFrames(
      fixture.frames.map((f) => f.frame),
      input.width,
      input.height,
    );
    const counts = [];
    let upright = 0;
    let posed = 0;
    for (const [i, labelled] of fixture.frames.entries()) {
      const people = await moveNetPeople(frames[i]!, input, fixture);
      counts.push(matchFrame(labelled.people, people));
      for (const person of people) {
        const y = (name: string) => person.keypoints.find((k) => k.name === name)!.y;
        posed++;
        // Walking people seen from above: the head above the shoulders above the hips above the ankles.
        if (y('nose') < y('left_hip') && y('left_shoulder') < y('left_ankle') && y('right_shoulder') < y('right_ankle')) upright++;
      }
    }
    const result = precisionRecall(counts);
    console.log(
      `MoveNet на vtest.avi: точность ${result.precision.toFixed(3)}, полнота ${result.recall.toFixed(3)} (${result.truePositives} из ${result.people}, ложных ${result.falsePositives})`,
    );
    expect(result.people).toBeGreaterThan(150);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
    expect(result.recall).toBeGreaterThanOrEqual(0.95);
    expect(upright / posed).toBeGreaterThan(0.9);
  });
});

describe('MoveNet output handling', () => {
  it('decodes [6 × 56] into boxes and keypoints in source pixels, dropping low scores', () => {
    const raw = new Float32Array(6 * 56);
    // Person 0: box y 0.25–0.75, x 0.5–0.625, score 0.8; nose at (y 0.3, x 0.55).
    raw.set([0.3, 0.55, 0.9], 0);
    raw.set([0.25, 0.5, 0.75, 0.625, 0.8], 51);
    // Person 1: score below the threshold.
    raw.set([0.1, 0.1, 0.2, 0.2, 0.05], 56 + 51);
    const people = decodeMoveNet(raw, 800, 400);
    expect(people).toHaveLength(1);
    expect(people[0]!.box).toEqual({ x1: 400, y1: 100, x2: 500, y2: 300 });
    expect(people[0]!.location).toEqual({ x: 450, y: 200 });
    expect(people[0]!.keypoints[0]).toEqual({ name: 'nose', x: 440, y: 120, score: 0.9 });
    expect(people[0]!.keypoints).toHaveLength(17);
  });

  it('cuts overlapping strips of multiples of 32 and merges a person seen in two', () => {
    const tiles = stripTiles(768, 2);
    expect(tiles).toEqual([
      { x: 0, width: 480 },
      { x: 288, width: 480 },
    ]);
    expect(movenetInputSize(1920, 1080)).toEqual({ width: 768, height: 448 });
    const person = (x1: number, score: number) => ({ location: { x: 0, y: 0 }, box: { x1, y1: 10, x2: x1 + 40, y2: 110 }, score, keypoints: [] });
    const merged = mergeOverlapping([person(330, 0.3), person(332, 0.5), person(500, 0.4)]);
    expect(merged.map((p) => [p.box.x1, p.score])).toEqual([
      [332, 0.5],
      [500, 0.4],
    ]);
  });
});
