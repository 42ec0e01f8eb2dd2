import { describe, expect, it } from 'vitest';
import { trainClassifier } from '../../../workers/src/vision/classifier';
import { exportOnnx } from '../../../workers/src/vision/onnx-export';
import { specOfOnnx } from './spec';

/** The model's feature description as the browser reads it from the ONNX file (workers/src/vision/onnx-metadata.ts). */
describe('ONNX metadata in the browser', () => {
  const model = async () => {
    const data = new Float32Array(40).map((_, i) => (i % 7) / 7);
    const labels = Int32Array.from({ length: 20 }, (_, i) => i % 2);
    return (await trainClassifier({ rows: 20, columns: 2, data }, labels, 2, { hidden: 4, maxEpochs: 3 })).model;
  };

  it('refuses a file without the spec or of another feature version', async () => {
    const trained = await model();
    expect(() => specOfOnnx(exportOnnx(trained))).toThrow('norma_vision_spec');
    expect(() => specOfOnnx(exportOnnx(trained, { norma_vision_spec: JSON.stringify({ featureVersion: 2 }) }))).toThrow('версии 2');
  });
});
