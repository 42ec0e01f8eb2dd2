import { makeSceneClip, SCENE_AREAS, sceneSchedule } from '../../test-support/vision-scene';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { specOfOnnx } from '../../../pwa/src/ml/spec';
import { VTEST_MISSING, vtestFixture, vtestFrames } from '../../../tests/support/vtest';
import { FEATURES_PER_AREA } from './features';
import { moveNetPeople } from './movenet';
import { movenetInputSize, type PosedHuman } from './movenet-decode';
import { applyOperationModel, FEATURE_VERSION, POSE_FEATURE_VERSION, trainOperationModel } from './pipeline';
import { DEFAULT_POSE_SAMPLING, POSE_FEATURES_PER_AREA, poseFeatureNames, poseFeatures, poseSampleOf } from './pose-features';

/** Keypoints of people as classifier features (issue 25, docs/vision.md «Позы как признаки»). */
const person = (points: Record<string, [number, number, number]>): PosedHuman => ({
  location: { x: 0, y: 0 },
  box: { x1: 0, y1: 0, x2: 1, y2: 1 },
  score: 0.9,
  keypoints: Object.entries(points).map(([name, [x, y, score]]) => ({ name: name as PosedHuman['keypoints'][number]['name'], x, y, score })),
});

describe('pose features', () => {
  it('give per area the best head, elbow and wrist inside it and where it is; nothing there is 0 at the centre', () => {
    const areas = [
      { x1: 0, y1: 0, x2: 100, y2: 100 },
      { x1: 200, y1: 0, x2: 100, y2: 50 }, // corners in any order
    ];
    const out = new Float32Array(areas.length * POSE_FEATURES_PER_AREA);
    poseFeatures(
      [
        person({ nose: [50, 20, 0.8], left_wrist: [10, 90, 0.4], right_wrist: [150, 25, 0.7], left_elbow: [300, 300, 0.9] }),
        person({ right_wrist: [20, 40, 0.6] }),
      ],
      areas,
      out,
    );
    const [a, b] = [Array.from(out.subarray(0, 9)), Array.from(out.subarray(9, 18))];
    // head p, x, y; elbows p, x, y; wrists p, x, y — the stronger of two wrists in the first area.
    expect(a.map((v) => Math.round(v * 100) / 100)).toEqual([0.8, 0.5, 0.2, 0, 0.5, 0.5, 0.6, 0.2, 0.4]);
    expect(b.map((v) => Math.round(v * 100) / 100)).toEqual([0, 0.5, 0.5, 0, 0.5, 0.5, 0.7, 0.5, 0.5]);
    expect(poseFeatureNames(['area1'])).toHaveLength(POSE_FEATURES_PER_AREA);
    expect(poseFeatureNames(['area1'])[8]).toBe('area1.pose_wrists_y');
  });

  it('hold a pose sample until the next one', () => {
    // Five steps a second, one pose a second: steps 0–4 take sample 0, 5–9 sample 1; never past the last.
    expect([0, 4, 5, 9, 10, 99].map((step) => poseSampleOf(step, 5, 1, 3))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it.skipIf(VTEST_MISSING)('see a real person’s head and wrists in the area around them on vtest.avi', async () => {
    const fixture = vtestFixture();
    const labelled = fixture.frames.find((f) => f.frame === 125)!;
    const input = movenetInputSize(fixture.width, fixture.height);
    const [rgb] = await vtestFrames([125], input.width, input.height);
    const people = await moveNetPeople(rgb!, input, fixture);
    const target = labelled.people.find((p) => !p.ignore)!;
    const around = { x1: target.x - 10, y1: target.y - 10, x2: target.x + target.w + 10, y2: target.y + target.h + 10 };
    const empty = { x1: 0, y1: 0, x2: 40, y2: 40 };
    const out = new Float32Array(2 * POSE_FEATURES_PER_AREA);
    poseFeatures(people, [around, empty], out);
    expect(out[0]).toBeGreaterThan(0.2); // the head
    expect(out[6]).toBeGreaterThan(0.1); // a wrist
    expect(Array.from(out.subarray(POSE_FEATURES_PER_AREA)).filter((_, i) => i % 3 === 0)).toEqual([0, 0, 0]);
  });
});

describe('a model trained with poses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'norma-pose-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores how poses were sampled, applies with the same columns, and the browser refuses it by name', async () => {
    const schedule = sceneSchedule(24, 5);
    const file = join(dir, 'scene.mp4');
    await makeSceneClip(file, schedule, { fps: 10 });
    const video = { file, width: 640, height: 360 };
    const areas = [
      { id: 1, name: 'Левая', rect: SCENE_AREAS.left },
      { id: 2, name: 'Правая', rect: SCENE_AREAS.right },
    ];
    const ops = ['A', 'B', 'C'] as const;
    const classes = [{ operationId: null, name: 'Фон (прочее)' }, ...ops.map((op, i) => ({ operationId: i + 1, name: op }))];
    const spans = schedule
      .filter((s) => s.operation !== 'idle')
      .map((s) => ({ classIndex: ops.indexOf(s.operation as (typeof ops)[number]) + 1, startSecond: s.startSecond, endSecond: s.endSecond }));
    const trained = await trainOperationModel({
      video,
      startSecond: 0,
      endSecond: 24,
      areas,
      classes,
      spans,
      pose: DEFAULT_POSE_SAMPLING,
      train: { maxEpochs: 30 },
    });
    expect(trained.spec.featureVersion).toBe(POSE_FEATURE_VERSION);
    expect(trained.spec.pose).toEqual(DEFAULT_POSE_SAMPLING);
    expect(trained.spec.featureNames).toHaveLength(areas.length * (FEATURES_PER_AREA + POSE_FEATURES_PER_AREA));
    expect(trained.spec.featureNames.at(-1)).toBe('area2.pose_wrists_y');
    const applied = await applyOperationModel({ video, startSecond: 0, endSecond: 24, onnx: trained.onnx, spec: trained.spec });
    expect(applied.steps).toBe(trained.report.steps);
    expect(applied.probabilities.length).toBe(applied.steps * classes.length);
    expect(() => specOfOnnx(trained.onnx)).toThrow('позы людей');

    // Without poses nothing changes: the version and the columns of the models trained before.
    const plain = await trainOperationModel({ video, startSecond: 0, endSecond: 24, areas, classes, spans, train: { maxEpochs: 5 } });
    expect(plain.spec.featureVersion).toBe(FEATURE_VERSION);
    expect(plain.spec.pose).toBeUndefined();
    expect(plain.spec.featureNames).toHaveLength(areas.length * FEATURES_PER_AREA);
    expect(specOfOnnx(plain.onnx).featureVersion).toBe(FEATURE_VERSION);
  });
});
