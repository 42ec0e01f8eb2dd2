import { onnx } from 'onnx-proto';

/**
 * A real ONNX person detector for the synthetic scene (vision-scene.ts), built here because no
 * pretrained detector can be downloaded: it takes the frame as float32 [1, 3, H, W] (RGB 0…1) and
 * answers [2, 5] (or [1, 2, 5]) — x1, y1, x2, y2 in input pixels and a score — for the "people" of
 * the scene: the red box and the blue box. A pixel belongs to a box when its colour channel exceeds
 * the mean of the other two by more than 0.4; the box is the bounding box of those pixels and its
 * score is 1 when there are any, else 0 (no detection). Everything is computed by the graph from
 * the frame, so the answer moves with the boxes — what tests of the detector path need.
 */
export interface SceneDetectorOptions {
  width?: number;
  height?: number;
  /** Answer [1, K, 5] instead of [K, 5] (both are accepted by the detector contract). */
  batched?: boolean;
  /** Give a malformed answer [K, 4] (tests of the error path). */
  fourColumns?: boolean;
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const { INT, INTS } = onnx.AttributeProto.AttributeType;

const floats = (name: string, dims: number[], values: number[]) => {
  const data = Float32Array.from(values);
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer) });
};
const int64s = (name: string, dims: number[], values: number[]) => onnx.TensorProto.create({ name, dims, dataType: INT64, int64Data: values });
const node = (opType: string, input: string[], output: string, attribute: onnx.IAttributeProto[] = []) =>
  onnx.NodeProto.create({ opType, input, output: [output], name: output, attribute });
const axes = (values: number[], keepdims: 0 | 1) => [
  { name: 'axes', type: INTS, ints: values },
  { name: 'keepdims', type: INT, i: keepdims },
];
const range = (n: number, from: number) => Array.from({ length: n }, (_, i) => i + from);

export function sceneBoxDetector({ width = 160, height = 90, batched = false, fourColumns = false }: SceneDetectorOptions = {}): Uint8Array {
  const initializer = [
    int64s('channel_0', [], [0]),
    int64s('channel_1', [], [1]),
    int64s('channel_2', [], [2]),
    floats('half', [], [0.5]),
    floats('threshold', [], [0.4]),
    floats('one', [], [1]),
    floats('far', [], [1e6]),
    floats('column_start', [width], range(width, 0)),
    floats('column_end', [width], range(width, 1)),
    floats('row_start', [height], range(height, 0)),
    floats('row_end', [height], range(height, 1)),
  ];
  const nodes: onnx.INodeProto[] = [0, 1, 2].map((c) => node('Gather', ['image', `channel_${c}`], `plane_${c}`, [{ name: 'axis', type: INT, i: 1 }]));
  const detections: string[] = [];
  for (const [name, own, others] of [
    ['red', 0, [1, 2]],
    ['blue', 2, [0, 1]],
  ] as const) {
    const p = (s: string) => `${name}_${s}`;
    nodes.push(
      node('Add', [`plane_${others[0]}`, `plane_${others[1]}`], p('others')),
      node('Mul', [p('others'), 'half'], p('others_mean')),
      node('Sub', [`plane_${own}`, p('others_mean')], p('excess')),
      node('Greater', [p('excess'), 'threshold'], p('is_box')),
      node('Cast', [p('is_box')], p('mask'), [{ name: 'to', type: INT, i: FLOAT }]),
      // Which columns and rows hold a box pixel ([1, W] and [1, H], 0 or 1).
      node('ReduceMax', [p('mask')], p('columns'), axes([1], 0)),
      node('ReduceMax', [p('mask')], p('rows'), axes([2], 0)),
    );
    for (const [axis, start, end] of [
      ['columns', 'column_start', 'column_end'],
      ['rows', 'row_start', 'row_end'],
    ] as const) {
      nodes.push(
        node('Sub', ['one', p(axis)], p(`${axis}_empty`)),
        node('Mul', [p(`${axis}_empty`), 'far'], p(`${axis}_push`)),
        node('Add', [start, p(`${axis}_push`)], p(`${axis}_starts`)),
        node('ReduceMin', [p(`${axis}_starts`)], p(`${axis}_first`), axes([1], 1)),
        node('Mul', [p(axis), end], p(`${axis}_ends`)),
        node('ReduceMax', [p(`${axis}_ends`)], p(`${axis}_last`), axes([1], 1)),
      );
    }
    nodes.push(node('ReduceMax', [p('columns')], p('score'), axes([1], 1)));
    const fields = [p('columns_first'), p('rows_first'), p('columns_last'), p('rows_last'), ...(fourColumns ? [] : [p('score')])];
    nodes.push(node('Concat', fields, p('detection'), [{ name: 'axis', type: INT, i: 1 }]));
    detections.push(p('detection'));
  }
  nodes.push(node('Concat', detections, batched ? 'boxes' : 'detections', [{ name: 'axis', type: INT, i: 0 }]));
  if (batched) {
    initializer.push(int64s('batch_axis', [1], [0]));
    nodes.push(node('Unsqueeze', ['boxes', 'batch_axis'], 'detections'));
  }
  const columns = fourColumns ? 4 : 5;
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'norma-tests',
    graph: onnx.GraphProto.create({
      name: 'scene_box_detector',
      input: [
        onnx.ValueInfoProto.create({
          name: 'image',
          type: { tensorType: { elemType: FLOAT, shape: { dim: [1, 3, height, width].map((dimValue) => ({ dimValue })) } } },
        }),
      ],
      output: [
        onnx.ValueInfoProto.create({
          name: 'detections',
          type: { tensorType: { elemType: FLOAT, shape: { dim: [...(batched ? [1] : []), 2, columns].map((dimValue) => ({ dimValue })) } } },
        }),
      ],
      initializer,
      node: nodes,
    }),
  });
  return onnx.ModelProto.encode(proto).finish();
}
