import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random';
import { argmaxRows, predict, trainClassifier } from './classifier';
import { evaluateLabels } from './evaluate';
import { ABSOLUTE_LIGHT, AreaFeatureExtractor, FEATURES_PER_AREA, toWorkRect, type FeatureMatrix } from './features';
import { findBlobs, foregroundMask, medianBackground } from './humans';
import { exportOnnx, ONNX_OPSET } from './onnx-export';
import { readOnnxMetadata } from './onnx-metadata';
import { loadClassifier, ModelLoadError } from './onnx-runtime';
import { segmentsOf, smoothPredictions } from './smoothing';

/** Three Gaussian clusters in 6 dimensions, the class given by the cluster. */
function clusters(rows: number, seed: number): { x: FeatureMatrix; labels: Int32Array } {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const columns = 6;
  const data = new Float32Array(rows * columns);
  const labels = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const label = r % 3;
    labels[r] = label;
    for (let f = 0; f < columns; f++) data[r * columns + f] = (f % 3 === label ? 3 : 0) + 0.1 * f + normal() * 0.6;
  }
  return { x: { rows, columns, data }, labels };
}

describe('classifier', () => {
  it.each([0, 12])('converges on separable data (hidden %i) and is deterministic for a seed', async (hidden) => {
    const { x, labels } = clusters(600, 5);
    const first = await trainClassifier(x, labels, 3, { hidden, seed: 9, maxEpochs: 120 });
    const predicted = argmaxRows(predict(first.model, x), 3);
    expect(evaluateLabels(labels, predicted, 3).accuracy).toBeGreaterThan(0.97);
    expect(first.validationFrom).toBe(480);
    expect(first.bestEpoch).toBeGreaterThan(0);
    const again = await trainClassifier(x, labels, 3, { hidden, seed: 9, maxEpochs: 120 });
    expect(Array.from(again.model.w2)).toEqual(Array.from(first.model.w2));
  });

  it('stops early when the held-out loss stops improving', async () => {
    // Labels unrelated to the features: the held-out loss soon gets worse, whatever the training loss does.
    const { x } = clusters(300, 2);
    const random = seededRandom(8);
    const labels = Int32Array.from({ length: 300 }, () => Math.floor(random() * 3));
    const result = await trainClassifier(x, labels, 3, { hidden: 16, maxEpochs: 500, patience: 10 });
    expect(result.epochs).toBeLessThan(500);
    expect(result.epochs - result.bestEpoch).toBe(10);
  });
});

describe('ONNX export', () => {
  it('runs in onnxruntime-web (wasm, from node_modules) with the TypeScript forward pass’s probabilities to 1e-5', async () => {
    const { x, labels } = clusters(300, 11);
    for (const hidden of [0, 10]) {
      const { model } = await trainClassifier(x, labels, 3, { hidden, seed: 3, maxEpochs: 40 });
      const bytes = exportOnnx(model, { norma_vision_spec: '{"fps":5}' });
      expect(readOnnxMetadata(bytes)).toEqual({ norma_vision_spec: '{"fps":5}' });
      const session = await loadClassifier(bytes, { inputs: 6, classes: 3 });
      const fromOnnx = await session.run(x);
      await session.release();
      const fromTs = predict(model, x);
      expect(fromOnnx.length).toBe(fromTs.length);
      let worst = 0;
      for (let i = 0; i < fromTs.length; i++) worst = Math.max(worst, Math.abs(fromOnnx[i]! - fromTs[i]!));
      expect(worst).toBeLessThan(1e-5);
    }
    expect(ONNX_OPSET).toBeGreaterThanOrEqual(13);
  });

  it('a file that is not a model gives ModelLoadError with a clear message', async () => {
    await expect(loadClassifier(new Uint8Array([1, 2, 3, 4]))).rejects.toThrow(ModelLoadError);
    await expect(loadClassifier(new TextEncoder().encode('not a model at all'))).rejects.toThrow(/^Файл модели не читается/);
  });
});

describe('features', () => {
  it('measures motion, intensity and the patch inside an area only (version 1: absolute light)', () => {
    const width = 16;
    const height = 8;
    const rect = toWorkRect({ x1: 0, y1: 0, x2: 320, y2: 360 }, { width: 640, height: 360 }, { width, height });
    expect(rect).toEqual({ x1: 0, y1: 0, x2: 8, y2: 8 });
    const extractor = new AreaFeatureExtractor([rect], width, 5, 256, ABSOLUTE_LIGHT);
    const frame = new Uint8Array(width * height).fill(100);
    extractor.push(frame);
    const bright = frame.slice();
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) bright[y * width + x] = 200;
    for (let y = 0; y < 8; y++) bright[y * width + 12] = 0; // outside the area: no effect
    extractor.push(bright);
    const m = extractor.finish();
    expect(m.columns).toBe(FEATURES_PER_AREA);
    const row1 = m.data.subarray(m.columns, 2 * m.columns);
    expect(row1[0]).toBeCloseTo(100 / 4 / 255, 6); // a quarter of the area changed by 100
    expect(row1[1]).toBeCloseTo(0.25, 6);
    expect(row1[2]).toBeCloseTo(125 / 255, 6);
    expect(row1[5]).toBeCloseTo(200 / 255, 6); // top-left patch cell
    expect(row1[20]).toBeCloseTo(100 / 255, 6);
    expect(m.data[0]).toBe(row1[0]); // the first step copies the second's motion
  });
});

describe('smoothing', () => {
  const probs = (labels: number[], classes = 3, confidence = 0.8) =>
    Float32Array.from(labels.flatMap((l) => Array.from({ length: classes }, (_, c) => (c === l ? confidence : (1 - confidence) / (classes - 1)))));

  it('absorbs segments shorter than the minimum into a neighbour', () => {
    const labels = [1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    expect(smoothPredictions(probs(labels), 3, { minSegmentSteps: 3, hysteresis: 0 })).toEqual([
      { label: 1, from: 0, to: 10 },
      { label: 0, from: 10, to: 15 },
    ]);
  });

  it('needs a clear lead to switch class (hysteresis)', () => {
    // Steps 3–5 lean to class 2 by only 0.1: with a 0.2 margin the run stays class 1.
    const p = new Float32Array([0.1, 0.8, 0.1, 0.1, 0.8, 0.1, 0.1, 0.8, 0.1, 0.05, 0.4, 0.55, 0.05, 0.42, 0.53, 0.05, 0.4, 0.55, 0.1, 0.1, 0.8]);
    expect(smoothPredictions(p, 3, { minSegmentSteps: 1, hysteresis: 0.2 })).toEqual([
      { label: 1, from: 0, to: 6 },
      { label: 2, from: 6, to: 7 },
    ]);
    expect(smoothPredictions(p, 3, { minSegmentSteps: 1, hysteresis: 0 }).map((s) => s.label)).toEqual([1, 2]);
  });

  it('keeps long segments and handles one segment and no steps', () => {
    expect(smoothPredictions(probs([2, 2, 2]), 3, { minSegmentSteps: 5, hysteresis: 0.1 })).toEqual([{ label: 2, from: 0, to: 3 }]);
    expect(smoothPredictions(new Float32Array(0), 3, { minSegmentSteps: 2, hysteresis: 0 })).toEqual([]);
    expect(segmentsOf([0, 0, 1, 1, 1, 0])).toEqual([
      { label: 0, from: 0, to: 2 },
      { label: 1, from: 2, to: 5 },
      { label: 0, from: 5, to: 6 },
    ]);
  });
});

describe('people by background subtraction', () => {
  it('finds two blobs on a synthetic frame against the median background', () => {
    const width = 40;
    const height = 30;
    const random = seededRandom(4);
    const backgrounds = Array.from({ length: 7 }, () => Uint8Array.from({ length: width * height }, () => 80 + Math.floor(random() * 6)));
    // One frame of the background set has a passer-by: the median ignores it.
    for (let i = 0; i < 50; i++) backgrounds[3]![i] = 250;
    const frame = backgrounds[0]!.slice();
    const paint = (x1: number, y1: number, x2: number, y2: number) => {
      for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) frame[y * width + x] = 200;
    };
    paint(5, 5, 11, 17); // a standing figure
    paint(25, 10, 33, 14); // a lying one
    frame[29 * width + 39] = 255; // a single noisy pixel
    const mask = foregroundMask(frame, medianBackground(backgrounds), 30);
    const blobs = findBlobs(mask, width, height, 4);
    expect(blobs).toHaveLength(2);
    expect(blobs[0]).toMatchObject({ x: 7.5, y: 10.5, x1: 5, y1: 5, x2: 11, y2: 17, area: 72 });
    expect(blobs[1]).toMatchObject({ x: 28.5, y: 11.5, area: 32 });
  });
});
