import { onnx } from 'onnx-proto';
import type { Classifier } from './classifier';

export const ONNX_OPSET = 13;
export const INPUT_NAME = 'features';
export const OUTPUT_NAME = 'probabilities';

const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** A float32 initialiser (the values copied). */
export const tensor = (name: string, dims: number[], values: Float32Array) =>
  onnx.TensorProto.create({
    name,
    dims,
    dataType: FLOAT,
    rawData: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)),
  });

const valueInfo = (name: string, columns: number) =>
  onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'steps' }, { dimValue: columns }] } } },
  });

/** A node of one output, named after it. */
export const node = (opType: string, input: string[], output: string, attribute: onnx.IAttributeProto[] = []) =>
  onnx.NodeProto.create({ opType, input, output: [output], name: output, attribute });

/**
 * The classifier as an ONNX model (opset 13): features [steps, F] → Sub(mean) → Mul(1/std) →
 * MatMul → Add [→ Relu → MatMul → Add] → Softmax → probabilities [steps, C]. Standardisation is
 * inside the graph, so a runtime feeds raw features. `metadata` (string pairs) travels in the file.
 */
export function exportOnnx(model: Classifier, metadata: Record<string, string> = {}): Uint8Array {
  const initializer = [tensor('mean', [model.inputs], model.mean), tensor('inv_std', [model.inputs], model.invStd)];
  const nodes = [node('Sub', [INPUT_NAME, 'mean'], 'centred'), node('Mul', ['centred', 'inv_std'], 'scaled')];
  let last = 'scaled';
  if (model.hidden > 0) {
    initializer.push(tensor('w1', [model.inputs, model.hidden], model.w1), tensor('b1', [model.hidden], model.b1));
    nodes.push(node('MatMul', [last, 'w1'], 'hidden_linear'), node('Add', ['hidden_linear', 'b1'], 'hidden_biased'), node('Relu', ['hidden_biased'], 'hidden'));
    last = 'hidden';
  }
  initializer.push(tensor('w2', [model.hidden > 0 ? model.hidden : model.inputs, model.classes], model.w2), tensor('b2', [model.classes], model.b2));
  nodes.push(
    node('MatMul', [last, 'w2'], 'logits_linear'),
    node('Add', ['logits_linear', 'b2'], 'logits'),
    node('Softmax', ['logits'], OUTPUT_NAME, [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }]),
  );
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: 'norma',
    producerVersion: '1',
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value })),
    graph: onnx.GraphProto.create({
      name: 'norma_operation_classifier',
      input: [valueInfo(INPUT_NAME, model.inputs)],
      output: [valueInfo(OUTPUT_NAME, model.classes)],
      initializer,
      node: nodes,
    }),
  });
  return onnx.ModelProto.encode(proto).finish();
}
