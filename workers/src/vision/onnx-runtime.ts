import * as ort from 'onnxruntime-web';
import type { FeatureMatrix } from './features';
import { INPUT_NAME, OUTPUT_NAME } from './onnx-export';

/** A model file that cannot be used: not ONNX, damaged, or not one of ours. The job fails with this message; nothing crashes. */
export class ModelLoadError extends Error {}

/** Rows per inference call: bounded memory for long spans. */
const BATCH_ROWS = 4096;

let configured = false;
/** Called before any session is made (classifier or detector); createSession calls it. */
function configureOnnxRuntime() {
  if (configured) return;
  configured = true;
  // The wasm backend, one thread: it loads from node_modules (no network) in Bun, Node and the browser alike.
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
}

/**
 * The one way this code opens an ONNX Runtime session. The first session loads ort's wasm, and its
 * loader, under Bun or Node, sets `globalThis.Worker` to node:worker_threads' class (onnxruntime-web
 * 1.x, `ort-wasm-simd-threaded.mjs`: `global.Worker = require("worker_threads").Worker`, no flag turns
 * it off); in the server that broke every thread started after a vision job (the basemap answered 500).
 * So the session is made with the globals kept: whatever it adds, replaces or removes on globalThis is
 * put back as it was (docs/architecture.md «Глобальные объекты»). One thread (numThreads = 1) means ort
 * never makes a Worker of its own, so it does not need the one it set.
 */
export async function createSession(bytes: Uint8Array): Promise<ort.InferenceSession> {
  configureOnnxRuntime();
  return keepingGlobals(() => ort.InferenceSession.create(bytes));
}

/** Runs `action`, then leaves globalThis's own properties as they were before it (added ones removed, changed or removed ones put back). */
async function keepingGlobals<T>(action: () => Promise<T>): Promise<T> {
  const before = new Map<PropertyKey, PropertyDescriptor>();
  for (const key of Reflect.ownKeys(globalThis)) before.set(key, Object.getOwnPropertyDescriptor(globalThis, key)!);
  try {
    return await action();
  } finally {
    for (const key of Reflect.ownKeys(globalThis)) {
      const was = before.get(key);
      const now = Object.getOwnPropertyDescriptor(globalThis, key);
      if (!was) Reflect.deleteProperty(globalThis, key);
      else if (!now || !sameDescriptor(was, now)) Reflect.defineProperty(globalThis, key, was);
    }
    for (const [key, was] of before) if (!Object.prototype.hasOwnProperty.call(globalThis, key)) Reflect.defineProperty(globalThis, key, was);
  }
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set &&
  a.writable === b.writable &&
  a.enumerable === b.enumerable &&
  a.configurable === b.configurable;

export interface OnnxClassifier {
  readonly inputs: number;
  /** Probabilities, rows × classes, row-major. */
  run(x: FeatureMatrix): Promise<Float32Array>;
  release(): Promise<void>;
}

/** Opens an operation classifier (onnx-export.ts) with onnxruntime-web; a bad file gives ModelLoadError. */
export async function loadClassifier(bytes: Uint8Array, expect?: { inputs: number; classes: number }): Promise<OnnxClassifier> {
  let session: ort.InferenceSession;
  try {
    session = await createSession(bytes);
  } catch (err) {
    throw new ModelLoadError(`Файл модели не читается: ${shortReason(err)}`);
  }
  if (!session.inputNames.includes(INPUT_NAME) || !session.outputNames.includes(OUTPUT_NAME)) {
    await session.release();
    throw new ModelLoadError(`Файл модели не подходит: нужны вход «${INPUT_NAME}» и выход «${OUTPUT_NAME}»`);
  }
  let inputs = expect?.inputs ?? 0;
  return {
    get inputs() {
      return inputs;
    },
    async run(x) {
      if (inputs && x.columns !== inputs) throw new ModelLoadError(`Модель ждёт ${inputs} признаков, а получено ${x.columns}`);
      inputs = x.columns;
      const parts: Float32Array[] = [];
      let classes = expect?.classes ?? 0;
      for (let from = 0; from < x.rows; from += BATCH_ROWS) {
        const to = Math.min(x.rows, from + BATCH_ROWS);
        const feed = new ort.Tensor('float32', x.data.subarray(from * x.columns, to * x.columns), [to - from, x.columns]);
        let output;
        try {
          output = (await session.run({ [INPUT_NAME]: feed }))[OUTPUT_NAME]!;
        } catch (err) {
          throw new ModelLoadError(`Модель не выполнилась: ${shortReason(err)}`);
        }
        classes = output.dims[1] ?? classes;
        if (expect && classes !== expect.classes) throw new ModelLoadError(`Модель выдаёт ${classes} классов, а ожидалось ${expect.classes}`);
        parts.push(output.data as Float32Array);
      }
      const out = new Float32Array(x.rows * classes);
      let offset = 0;
      for (const part of parts) {
        out.set(part, offset);
        offset += part.length;
      }
      return out;
    },
    release: () => session.release(),
  };
}

const shortReason = (err: unknown) =>
  (err instanceof Error ? err.message : String(err))
    .replace(/^Error: /, '')
    .split('\n')[0]!
    .slice(0, 300);

export { ort };
