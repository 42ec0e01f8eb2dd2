import * as tf from '@tensorflow/tfjs-core';
import { onnx } from 'onnx-proto';
import { node, ONNX_OPSET, tensor } from './onnx-export';

/**
 * MoveNet multipose's convolutional part as an ONNX model, built in memory from the TensorFlow.js
 * graph model (the same JSON and weights the browser loads), so that the server can run it on
 * ONNX Runtime's native CPU kernels (movenet-native.ts; docs/vision.md «Детектор людей»). Only the
 * network is converted — input normalisation, the MobileNetV2 FPN and the six CenterNet heads,
 * up to their logits; the graph's own decoding (sigmoid, centre NMS, top six people, keypoint
 * matching) stays in TensorFlow.js, fed at the heads, so the people found are the model's own.
 *
 * TensorFlow's NHWC layout becomes ONNX's NCHW: one Transpose before the first convolution, one
 * after each head. Weights HWIO become OIHW (depthwise HW·C·1 → C·1·H·W with group = C); 'SAME'
 * padding is SAME_UPPER (TensorFlow puts the odd pixel after); Relu6 is Clip(0, 6); ResizeBilinear
 * with half-pixel centres is Resize linear half_pixel by the graph's constant factor.
 */

interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { list?: { i?: string[]; s?: string[] }; s?: string; b?: boolean; type?: string }>;
}

export interface TfjsGraphModel {
  modelTopology: { node: GraphNode[] };
  weightsManifest: { weights: tf.io.WeightsManifestEntry[] }[];
}

/** The converted network: the ONNX bytes and, per output, the graph node whose value it is (NHWC). */
export interface MoveNetOnnx {
  bytes: Uint8Array;
  input: string;
  /** ONNX output name → TensorFlow.js node name, to feed the graph's decoding. */
  heads: Record<string, string>;
}

const CONVOLUTIONS = new Set(['_FusedConv2D', 'FusedDepthwiseConv2dNative', 'DepthwiseConv2dNative']);
/** Ops that carry the network's feature maps onward; a head is a convolution none of them reads. */
const NETWORK_OPS = new Set([...CONVOLUTIONS, 'AddV2', 'ResizeBilinear']);

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const UINT8 = onnx.TensorProto.DataType.UINT8;
const A = onnx.AttributeProto.AttributeType;

const nodeName = (ref: string) => ref.replace(/^\^/, '').split(':')[0]!;
const decoded = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString() : '');
const ints = (node: GraphNode, key: string) => (node.attr?.[key]?.list?.i ?? []).map(Number);

/** The ONNX graph being written: initialisers and nodes, in order. */
class GraphBuilder {
  readonly initializer: onnx.ITensorProto[] = [];
  readonly nodes: onnx.INodeProto[] = [];

  tensor(name: string, dims: number[], values: Float32Array): string {
    this.initializer.push(tensor(name, dims, values));
    return name;
  }

  node(opType: string, input: string[], output: string, attribute: onnx.IAttributeProto[] = []): string {
    this.nodes.push(node(opType, input, output, attribute));
    return output;
  }
}

const text = (s: string) => new TextEncoder().encode(s);

/** The network's outputs: convolutions no other network op reads (the six CenterNet heads). */
function networkHeads(nodes: Map<string, GraphNode>): GraphNode[] {
  const readers = new Map<string, GraphNode[]>();
  for (const n of nodes.values()) for (const ref of n.input ?? []) readers.set(nodeName(ref), [...(readers.get(nodeName(ref)) ?? []), n]);
  const heads = [...nodes.values()].filter((n) => CONVOLUTIONS.has(n.op) && !(readers.get(n.name) ?? []).some((r) => NETWORK_OPS.has(r.op)));
  if (heads.length !== 6) throw new Error(`MoveNet: ожидалось 6 выходов сети, найдено ${heads.length}`);
  return heads;
}

/** TensorFlow's filter HWIO (depthwise H·W·C·M) as ONNX's OIHW (depthwise (C·M)·1·H·W). */
function filterOihw(filter: tf.Tensor, depthwise: boolean): { dims: number[]; values: Float32Array } {
  const [kh, kw, cin, cout] = filter.shape as [number, number, number, number];
  const src = filter.dataSync();
  const outputs = depthwise ? cin * cout : cout;
  const inputs = depthwise ? 1 : cin;
  const values = new Float32Array(src.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++) {
          const [oc, ic] = depthwise ? [i * cout + o, 0] : [o, i];
          values[((oc * inputs + ic) * kh + y) * kw + x] = src[((y * kw + x) * cin + i) * cout + o]!;
        }
  return { dims: [outputs, inputs, kh, kw], values };
}

/** A (fused) convolution of TensorFlow as Conv [+ Relu | Clip(0, 6)] on the NCHW value `x`. */
function convolution(graph: GraphBuilder, n: GraphNode, x: string, constant: (ref: string) => tf.Tensor): string {
  const [, filterRef, biasRef] = n.input!;
  const depthwise = n.op !== '_FusedConv2D';
  const filter = constant(filterRef!);
  const { dims, values } = filterOihw(filter, depthwise);
  const fused = (n.attr?.fused_ops?.list?.s ?? []).map(decoded);
  if (fused.some((f) => !['BiasAdd', 'Relu', 'Relu6'].includes(f))) throw new Error(`MoveNet: ${n.name}: ${fused.join(',')}`);
  const inputs = [x, graph.tensor(`${n.name}/W`, dims, values)];
  if (fused.includes('BiasAdd')) inputs.push(graph.tensor(`${n.name}/B`, [dims[0]!], new Float32Array(constant(biasRef!).dataSync())));
  const [strides, dilations] = [ints(n, 'strides'), ints(n, 'dilations')];
  const attribute: onnx.IAttributeProto[] = [
    { name: 'kernel_shape', type: A.INTS, ints: dims.slice(2) },
    { name: 'strides', type: A.INTS, ints: [strides[1] ?? 1, strides[2] ?? 1] },
    { name: 'dilations', type: A.INTS, ints: [dilations[1] ?? 1, dilations[2] ?? 1] },
    // TensorFlow's 'SAME' puts the odd padding pixel after: SAME_UPPER.
    { name: 'auto_pad', type: A.STRING, s: text(decoded(n.attr?.padding?.s) === 'SAME' ? 'SAME_UPPER' : 'VALID') },
  ];
  if (depthwise) attribute.push({ name: 'group', type: A.INT, i: filter.shape[2]! });
  const activated = fused.includes('Relu') || fused.includes('Relu6');
  const y = graph.node('Conv', inputs, activated ? `${n.name}/conv` : n.name, attribute);
  if (fused.includes('Relu')) return graph.node('Relu', [y], n.name);
  if (fused.includes('Relu6'))
    return graph.node('Clip', [y, graph.tensor(`${n.name}/0`, [], new Float32Array([0])), graph.tensor(`${n.name}/6`, [], new Float32Array([6]))], n.name);
  return y;
}

/** ResizeBilinear to the input's own size times the graph's constant (Mul(StridedSlice(Shape(x)), factor)) as Resize linear half_pixel. */
function resize(graph: GraphBuilder, n: GraphNode, x: string, nodes: Map<string, GraphNode>, constant: (ref: string) => tf.Tensor): string {
  const size = nodes.get(nodeName(n.input![1]!))!;
  const factor = size.input?.map((r) => nodes.get(nodeName(r))!).find((r) => r.op === 'Const');
  if (size.op !== 'Mul' || !factor || !n.attr?.half_pixel_centers?.b || n.attr.align_corners?.b) throw new Error(`MoveNet: ${n.name}: размер не константный`);
  const [fy, fx] = constant(factor.name).dataSync();
  const scales = graph.tensor(`${n.name}/scales`, [4], new Float32Array([1, 1, fy!, fx!]));
  return graph.node('Resize', [x, '', scales], n.name, [
    { name: 'mode', type: A.STRING, s: text('linear') },
    { name: 'coordinate_transformation_mode', type: A.STRING, s: text('half_pixel') },
  ]);
}

export function moveNetToOnnx(model: TfjsGraphModel, weightData: ArrayBuffer): MoveNetOnnx {
  const nodes = new Map(model.modelTopology.node.map((n) => [n.name, n]));
  const heads = networkHeads(nodes);
  const weights = tf.io.decodeWeights(
    weightData,
    model.weightsManifest.flatMap((m) => m.weights),
  );
  const constant = (ref: string) => {
    const t = weights[nodeName(ref)];
    if (!t) throw new Error(`MoveNet: нет веса ${ref}`);
    return t;
  };
  const graph = new GraphBuilder();

  // What each TensorFlow node became: the ONNX value and whether it is NCHW (else still NHWC).
  const done = new Map<string, { value: string; nchw: boolean }>();
  const nchwOf = (ref: string) => {
    const v = value(ref);
    return v.nchw ? v.value : graph.node('Transpose', [v.value], `${v.value}/nchw`, [{ name: 'perm', type: A.INTS, ints: [0, 3, 1, 2] }]);
  };
  // A constant operand: any shape beside an NHWC value (it broadcasts as in TensorFlow), a scalar beside an NCHW one.
  const operand = (ref: string, nchw: boolean) => {
    const t = constant(ref);
    if (nchw && t.size !== 1) throw new Error(`MoveNet: ${ref} не скаляр`);
    return graph.tensor(nodeName(ref), nchw ? [] : t.shape, new Float32Array(t.dataSync()));
  };
  const elementwise = (n: GraphNode) => {
    const op = n.op === 'AddV2' ? 'Add' : n.op;
    const [a, b] = n.input!.map((r) => nodes.get(nodeName(r))!) as [GraphNode, GraphNode];
    if (a.op !== 'Const' && b.op !== 'Const') return { value: graph.node(op, [nchwOf(a.name), nchwOf(b.name)], n.name), nchw: true };
    const v = value((a.op === 'Const' ? b : a).name);
    const inputs = a.op === 'Const' ? [operand(a.name, v.nchw), v.value] : [v.value, operand(b.name, v.nchw)];
    return { value: graph.node(op, inputs, n.name), nchw: v.nchw };
  };

  function value(ref: string): { value: string; nchw: boolean } {
    const name = nodeName(ref);
    const known = done.get(name);
    if (known) return known;
    const n = nodes.get(name);
    if (!n) throw new Error(`MoveNet: нет узла ${name}`);
    let result: { value: string; nchw: boolean };
    if (n.op === 'Placeholder') result = { value: name, nchw: false };
    else if (n.op === 'Cast') {
      const x = value(n.input![0]!);
      result = { value: graph.node('Cast', [x.value], name, [{ name: 'to', type: A.INT, i: FLOAT }]), nchw: x.nchw };
    } else if (n.op === 'Sub' || n.op === 'Mul' || n.op === 'AddV2') result = elementwise(n);
    else if (n.op === 'ResizeBilinear') result = { value: resize(graph, n, nchwOf(n.input![0]!), nodes, constant), nchw: true };
    else if (CONVOLUTIONS.has(n.op)) result = { value: convolution(graph, n, nchwOf(n.input![0]!), constant), nchw: true };
    else throw new Error(`MoveNet: операция ${n.op} (${name}) не переводится`);
    done.set(name, result);
    return result;
  }

  const outputs: Record<string, string> = {};
  for (const [i, head] of heads.entries()) {
    const name = `head${i}`;
    graph.node('Transpose', [value(head.name).value], name, [{ name: 'perm', type: A.INTS, ints: [0, 2, 3, 1] }]);
    outputs[name] = head.name;
  }
  tf.dispose(Object.values(weights));

  const input = [...nodes.values()].find((n) => n.op === 'Placeholder')!.name;
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: 'norma',
    graph: {
      name: 'movenet_multipose_network',
      input: [
        {
          name: input,
          type: { tensorType: { elemType: UINT8, shape: { dim: [{ dimValue: 1 }, { dimParam: 'height' }, { dimParam: 'width' }, { dimValue: 3 }] } } },
        },
      ],
      output: Object.keys(outputs).map((name) => ({ name, type: { tensorType: { elemType: FLOAT } } })),
      initializer: graph.initializer,
      node: graph.nodes,
    },
  });
  return { bytes: onnx.ModelProto.encode(proto).finish(), input, heads: outputs };
}
