import { describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING } from '../../../tests/support/vtest';
import type { FeatureMatrix } from './features';
import { decodeFrames } from './frames';
import { moveNetPeople } from './movenet';
import { movenetInputSize } from './movenet-decode';
import { loadClassifier } from './onnx-runtime';
import { applyOperationModel, extractSpanFeatures, trainOperationModel, type VisionSpec } from './pipeline';
import { DEFAULT_POSE_SAMPLING, POSE_FEATURES_PER_AREA, poseFeatures, poseSampleOf } from './pose-features';

// A model with poses decodes the recording once (issue 43): gray work-size frames for the pixel
// features and RGB frames for MoveNet come from one ffmpeg process. Its features — and so what
// applying the model gives — must be those of the two separate decodes it replaced. Real footage
// (vtest.avi, people walking) so that MoveNet finds people and the pose columns are not all zero.
const VIDEO = { file: VTEST_AVI, width: 768, height: 576 };
const AREAS = [
  { id: 1, name: 'левая', rect: { x1: 0, y1: 150, x2: 384, y2: 576 } },
  { id: 2, name: 'правая', rect: { x1: 384, y1: 150, x2: 768, y2: 576 } },
];
const CLASSES = [
  { operationId: null, name: 'фон' },
  { operationId: 1, name: 'первая' },
  { operationId: 2, name: 'вторая' },
];

/** The features as before the single decode: the pixel features from their own decode, the pose features from a second, RGB one. */
async function twoPassFeatures(spec: VisionSpec, startSecond: number, endSecond: number): Promise<FeatureMatrix> {
  const pose = spec.pose!;
  const pixels = await extractSpanFeatures({ video: VIDEO, startSecond, endSecond }, { ...spec, pose: undefined });
  const size = movenetInputSize(VIDEO.width, VIDEO.height, pose.inputWidth);
  const perArea = spec.areas.length * POSE_FEATURES_PER_AREA;
  const samples: Float32Array[] = [];
  await decodeFrames(VIDEO.file, { startSecond, endSecond, fps: pose.fps, ...size, pixelFormat: 'rgb24', source: VIDEO }, async (frame) => {
    const out = new Float32Array(perArea);
    poseFeatures(
      await moveNetPeople(frame, size, VIDEO, pose.columns),
      spec.areas.map((a) => a.rect),
      out,
    );
    samples.push(out);
  });
  const columns = pixels.columns + perArea;
  const data = new Float32Array(pixels.rows * columns);
  for (let r = 0; r < pixels.rows; r++) {
    data.set(pixels.data.subarray(r * pixels.columns, (r + 1) * pixels.columns), r * columns);
    data.set(samples[poseSampleOf(r, spec.fps, pose.fps, samples.length)]!, r * columns + pixels.columns);
  }
  return { rows: pixels.rows, columns, data };
}

describe.skipIf(VTEST_MISSING)('a model with poses, one decode', () => {
  it('computes the features of two separate decodes and applies with the same probabilities and segments', async () => {
    const model = await trainOperationModel({
      video: VIDEO,
      startSecond: 0,
      endSecond: 24,
      areas: AREAS,
      classes: CLASSES,
      spans: [
        { classIndex: 1, startSecond: 3, endSecond: 9 },
        { classIndex: 2, startSecond: 12, endSecond: 18 },
      ],
      pose: DEFAULT_POSE_SAMPLING,
    });
    expect(model.spec.pose).toEqual(DEFAULT_POSE_SAMPLING);
    const [start, end] = [2, 32];
    const single = await extractSpanFeatures({ video: VIDEO, startSecond: start, endSecond: end }, model.spec);
    const reference = await twoPassFeatures(model.spec, start, end);
    expect([single.rows, single.columns]).toEqual([reference.rows, reference.columns]);
    expect(single.rows).toBeGreaterThanOrEqual(150);
    expect(Buffer.from(single.data.buffer, single.data.byteOffset, single.data.byteLength).equals(Buffer.from(reference.data.buffer))).toBe(true);
    // People were found: the pose columns carry something to compare.
    const poseColumns = model.spec.areas.length * POSE_FEATURES_PER_AREA;
    let posed = 0;
    for (let r = 0; r < single.rows; r++)
      for (let c = single.columns - poseColumns; c < single.columns; c++) if (single.data[r * single.columns + c] !== 0) posed++;
    expect(posed).toBeGreaterThan(single.rows);

    // Applying (one decode) gives the probabilities of the two-pass features, and so the same segments
    // (segments are a function of the features and the probabilities): checked against a second apply too.
    const applied = await applyOperationModel({ video: VIDEO, startSecond: start, endSecond: end, onnx: model.onnx, spec: model.spec });
    const session = await loadClassifier(model.onnx, { inputs: model.spec.featureNames.length, classes: model.spec.classes.length });
    const fromReference = await session.run(reference);
    await session.release();
    expect(Array.from(applied.probabilities)).toEqual(Array.from(fromReference));
    expect(applied.steps).toBe(reference.rows);
    expect(applied.segments.length).toBeGreaterThan(0);
    const again = await applyOperationModel({ video: VIDEO, startSecond: start, endSecond: end, onnx: model.onnx, spec: model.spec });
    expect(again.segments).toEqual(applied.segments);
  });
});
