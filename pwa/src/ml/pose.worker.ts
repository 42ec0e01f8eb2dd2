/// <reference lib="webworker" />
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simdWasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import threadedWasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type * as Tf from '@tensorflow/tfjs-core';
// Only these two model files are served, from our own origin (emitted by the build, fetched on first use).
import modelWeightsUrl from '../../../workers/models/movenet-multipose/movenet-multipose.bin?url';
import modelTopologyUrl from '../../../workers/models/movenet-multipose/movenet-multipose.json?url';
import { decodeMoveNet, mergeOverlapping, MOVENET_COLUMNS, movenetInputSize, shifted, stripTiles } from '../../../workers/src/vision/movenet-decode';
import type { PoseBackend, PoseReply, PoseRequest } from './pose-protocol';

/**
 * MoveNet multipose in the browser (docs/vision.md «Детектор людей»): the same model files and the
 * same decoding, strips and threshold as the server (workers/src/vision/movenet.ts), run by
 * TensorFlow.js on WebGPU when the browser has an adapter, else WebGL, else wasm. A worker: a
 * detection never stalls the page.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
let tf: typeof Tf | null = null;
let model: GraphModel | null = null;

async function webgpuAdapter(): Promise<boolean> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  return Boolean(gpu && (await gpu.requestAdapter().catch(() => null)));
}

function webgl2(): boolean {
  try {
    return typeof OffscreenCanvas !== 'undefined' && new OffscreenCanvas(1, 1).getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

async function start(wanted?: PoseBackend): Promise<PoseBackend> {
  tf = await import('@tensorflow/tfjs-core');
  const order: PoseBackend[] = wanted ? [wanted] : ['webgpu', 'webgl', 'wasm'];
  for (const backend of order) {
    if (backend === 'webgpu' && !(await webgpuAdapter())) continue;
    if (backend === 'webgl' && !webgl2()) continue;
    if (backend === 'webgpu') await import('@tensorflow/tfjs-backend-webgpu');
    if (backend === 'webgl') await import('@tensorflow/tfjs-backend-webgl');
    if (backend === 'wasm') {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      wasm.setWasmPaths({
        'tfjs-backend-wasm.wasm': wasmUrl,
        'tfjs-backend-wasm-simd.wasm': simdWasmUrl,
        'tfjs-backend-wasm-threaded-simd.wasm': threadedWasmUrl,
      });
    }
    if (await tf.setBackend(backend)) {
      await tf.ready();
      return backend;
    }
  }
  throw new Error(`TensorFlow.js не запустился (${order.join(', ')})`);
}

async function loadModel(): Promise<GraphModel> {
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  const [topology, weights] = await Promise.all([
    fetch(modelTopologyUrl).then((r) =>
      r.ok
        ? (r.json() as Promise<{ modelTopology: object; weightsManifest: { weights: Tf.io.WeightsManifestEntry[] }[] }>)
        : Promise.reject(new Error(`модель: HTTP ${r.status}`)),
    ),
    fetch(modelWeightsUrl).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`веса модели: HTTP ${r.status}`)))),
  ]);
  return loadGraphModel({
    load: async () => ({ modelTopology: topology.modelTopology, weightSpecs: topology.weightsManifest.flatMap((m) => m.weights), weightData: weights }),
  });
}

async function detect(rgba: Uint8Array, width: number, height: number) {
  const t = tf!;
  const input = movenetInputSize(width, height);
  const tiles = stripTiles(input.width, MOVENET_COLUMNS);
  const frame = t.tidy(() => {
    const rgb = t.slice(t.tensor3d(rgba, [height, width, 4], 'int32'), [0, 0, 0], [height, width, 3]);
    return t.expandDims(t.cast(t.image.resizeBilinear(rgb as Tf.Tensor3D, [input.height, input.width]), 'int32'), 0);
  });
  try {
    const people = [];
    for (const tile of tiles) {
      const output = t.tidy(() => model!.execute(t.slice(frame, [0, 0, tile.x, 0], [1, input.height, tile.width, 3])) as Tf.Tensor);
      try {
        const raw = (await output.data()) as Float32Array;
        people.push(...decodeMoveNet(raw, tile.width, input.height).map((p) => shifted(p, tile.x, width / input.width, height / input.height)));
      } finally {
        output.dispose();
      }
    }
    return mergeOverlapping(people);
  } finally {
    frame.dispose();
  }
}

async function handle(request: PoseRequest): Promise<PoseReply> {
  switch (request.type) {
    case 'load': {
      const backend = await start(request.backend);
      model = await loadModel();
      return { id: request.id, type: 'loaded', backend };
    }
    case 'detect': {
      if (!model) throw new Error('Модель не загружена');
      const started = performance.now();
      const people = await detect(new Uint8Array(request.rgba), request.width, request.height);
      return { id: request.id, type: 'people', people, milliseconds: performance.now() - started };
    }
  }
}

scope.onmessage = (event: MessageEvent<PoseRequest>) => {
  handle(event.data).then(
    (reply) => scope.postMessage(reply),
    (err: unknown) => scope.postMessage({ id: event.data.id, type: 'error', message: err instanceof Error ? err.message : String(err) } satisfies PoseReply),
  );
};
