import { describe, expect, it } from 'vitest';
import { trainClassifier } from '../../../workers/src/vision/classifier';
import { exportOnnx, readOnnxMetadata as readWithProtobuf } from '../../../workers/src/vision/onnx-export';
import { readOnnxMetadata } from './onnx-metadata';
import { specOfOnnx } from './spec';

/** The browser's few-line protobuf reader against the protobuf library the server writes the file with. */
describe('ONNX metadata in the browser', () => {
  const model = async () => {
    const data = new Float32Array(40).map((_, i) => (i % 7) / 7);
    const labels = Int32Array.from({ length: 20 }, (_, i) => i % 2);
    return (await trainClassifier({ rows: 20, columns: 2, data }, labels, 2, { hidden: 4, maxEpochs: 3 })).model;
  };

  it('reads the same pairs as the protobuf library, Cyrillic included', async () => {
    const metadata = { norma_vision_spec: JSON.stringify({ featureVersion: 1, classes: [{ name: 'Фон (прочее)' }] }), other: 'значение' };
    const bytes = exportOnnx(await model(), metadata);
    expect(readOnnxMetadata(bytes)).toEqual(readWithProtobuf(bytes));
    expect(readOnnxMetadata(bytes)).toEqual(metadata);
  });

  it('refuses a file without the spec, of another feature version, or cut short', async () => {
    const trained = await model();
    expect(() => specOfOnnx(exportOnnx(trained))).toThrow('norma_vision_spec');
    expect(() => specOfOnnx(exportOnnx(trained, { norma_vision_spec: JSON.stringify({ featureVersion: 2 }) }))).toThrow('версии 2');
    const whole = exportOnnx(trained, { norma_vision_spec: '{}' });
    expect(() => readOnnxMetadata(whole.subarray(0, whole.length - 3))).toThrow('оборван');
  });
});
