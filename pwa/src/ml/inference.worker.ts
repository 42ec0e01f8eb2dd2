/// <reference lib="webworker" />
import type * as Ort from 'onnxruntime-web';
// The runtime's wasm comes from our own origin (emitted by the build, loaded only when a model is opened).
import webgpuWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { uncertainSteps } from '../../../workers/src/vision/classifier';
import { AreaFeatureExtractor, pixelLightOf, toWorkRect } from '../../../workers/src/vision/features';
import { grayWorkFrame } from './gray';
import type { InferenceBackend, WorkerReply, WorkerRequest } from './protocol';
import { specOfOnnx, type BrowserVisionSpec } from './spec';

/**
 * Runs a model (the same ONNX file the server applies) in the browser: the features of
 * workers/src/vision/features.ts over gray working frames, then onnxruntime-web. A worker, so a
 * run never stalls the player. Input and output names as in workers/src/vision/onnx-export.ts.
 */
const INPUT_NAME = 'features';
const OUTPUT_NAME = 'probabilities';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let ort: typeof Ort | null = null;
let session: Ort.InferenceSession | null = null;
let spec: BrowserVisionSpec | null = null;
/** Live playback: the last gray frames (about two seconds) and the second of the newest. */
let recent: Uint8Array[] = [];
let lastSecond = -Infinity;

async function runtime(wanted?: InferenceBackend): Promise<{ ort: typeof Ort; backend: InferenceBackend }> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  const adapter = wanted !== 'wasm' && gpu ? await gpu.requestAdapter().catch(() => null) : null;
  const backend: InferenceBackend = adapter ? 'webgpu' : 'wasm';
  const loaded = backend === 'webgpu' ? await import('onnxruntime-web/webgpu') : await import('onnxruntime-web/wasm');
  // One thread: no COOP/COEP isolation here, so no SharedArrayBuffer; no proxy worker (this is one).
  loaded.env.wasm.numThreads = 1;
  loaded.env.wasm.proxy = false;
  loaded.env.wasm.wasmPaths = { wasm: backend === 'webgpu' ? webgpuWasmUrl : wasmUrl };
  loaded.env.logLevel = 'error';
  return { ort: loaded, backend };
}

function features(frames: Uint8Array[]) {
  const s = spec!;
  const rects = s.areas.map((a) => toWorkRect(a.rect, s.source, s.work));
  const extractor = new AreaFeatureExtractor(rects, s.work.width, s.fps, frames.length, pixelLightOf(s.featureVersion));
  for (const frame of frames) extractor.push(frame);
  return extractor.finish();
}

async function probabilities(frames: Uint8Array[]) {
  if (!session || !ort || !spec) throw new Error('Модель не загружена');
  const x = features(frames);
  const output = (await session.run({ [INPUT_NAME]: new ort.Tensor('float32', x.data, [x.rows, x.columns]) }))[OUTPUT_NAME]!;
  const data = (output.location === 'gpu-buffer' ? await output.getData() : output.data) as Float32Array;
  return { rows: x.rows, classes: Number(output.dims[1]), data: new Float32Array(data), x };
}

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  const { id } = request;
  switch (request.type) {
    case 'load': {
      const bytes = new Uint8Array(request.model);
      spec = specOfOnnx(bytes);
      const loaded = await runtime(request.backend);
      ort = loaded.ort;
      await session?.release();
      session = await ort.InferenceSession.create(bytes, { executionProviders: [loaded.backend] });
      recent = [];
      lastSecond = -Infinity;
      return { id, type: 'loaded', backend: loaded.backend, spec };
    }
    case 'frames': {
      const { rows, classes, data } = await probabilities(request.frames.map((f) => new Uint8Array(f)));
      return { id, type: 'probabilities', rows, classes, data };
    }
    case 'live': {
      const s = spec;
      if (!s) throw new Error('Модель не загружена');
      const step = 1 / s.fps;
      // A seek or a gap (a slow machine at x16) breaks the sequence: features need consecutive steps.
      if (request.second < lastSecond || request.second - lastSecond > step * 2.5) recent = [];
      lastSecond = request.second;
      recent.push(grayWorkFrame(new Uint8Array(request.rgba), request.width, request.height, s.work.width, s.work.height));
      const half = Math.max(1, Math.round(s.fps / 2));
      // One frame more than the centred second: the first step's motion has no previous frame (it copies the second's).
      const size = 2 * half + 2;
      if (recent.length > size) recent = recent.slice(-size);
      if (recent.length < size) return { id, type: 'suggestion', second: request.second, probabilities: null, uncertain: false };
      // The middle step of the window has its one-second motion centred as on the server.
      const result = await probabilities(recent);
      const row = result.rows - 1 - half;
      // «Не уверена» by the same test as the applying job (classifier.ts), on the same step's features.
      const uncertain = uncertainSteps(s.novelty, result.x, result.data, result.classes)[row] === 1;
      return {
        id,
        type: 'suggestion',
        second: request.second - half * step,
        probabilities: result.data.slice(row * result.classes, (row + 1) * result.classes),
        uncertain,
      };
    }
    case 'reset':
      recent = [];
      lastSecond = -Infinity;
      return { id, type: 'done' };
  }
}

// One request at a time, in order: playback sends the next frame before the last one's answer (so a
// slow answer does not stretch the sampling), and one session must not run twice at once.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  queue = queue.then(() =>
    handle(event.data).then(
      (reply) => scope.postMessage(reply, reply.type === 'probabilities' ? [reply.data.buffer] : []),
      (err: unknown) =>
        scope.postMessage({ id: event.data.id, type: 'error', message: err instanceof Error ? err.message : String(err) } satisfies WorkerReply),
    ),
  );
};
