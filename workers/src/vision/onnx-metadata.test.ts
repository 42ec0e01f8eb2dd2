import { onnx } from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { trainClassifier } from './classifier';
import { exportOnnx } from './onnx-export';
import { readOnnxMetadata } from './onnx-metadata';

/** The pairs as the protobuf library the server writes the file with decodes them: the oracle. */
const readWithProtobuf = (bytes: Uint8Array) =>
  Object.fromEntries((onnx.ModelProto.decode(bytes).metadataProps ?? []).map((p) => [p.key ?? '', p.value ?? '']));

/** The few-line protobuf reader (server and browser) against the protobuf library the server writes the file with. */
describe('ONNX metadata', () => {
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

  it('refuses a file cut short', async () => {
    const whole = exportOnnx(await model(), { norma_vision_spec: '{}' });
    expect(() => readOnnxMetadata(whole.subarray(0, whole.length - 3))).toThrow('оборван');
  });
});
