import * as ort from 'onnxruntime-web';
import type { FeatureMatrix } from './features';
import { INPUT_NAME, OUTPUT_NAME } from './onnx-export';

/** A model file that cannot be used: not ONNX, damaged, or not one of ours. The job fails with this message; nothing crashes. */
export class ModelLoadError extends Error {}

/** Rows per inference call: bounded memory for long spans. */
const BATCH_ROWS = 4096;

let configured = false;
/** Called before any session is made (classifier or detector). */
export function configureOnnxRuntime() {
  if (configured) return;
  configured = true;
  // The wasm backend, one thread: it loads from node_modules (no network) in Bun, Node and the browser alike.
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
}

export interface OnnxClassifier {
  readonly inputs: number;
  /** Probabilities, rows × classes, row-major. */
  run(x: FeatureMatrix): Promise<Float32Array>;
  release(): Promise<void>;
}

/** Opens an operation classifier (onnx-export.ts) with onnxruntime-web; a bad file gives ModelLoadError. */
export async function loadClassifier(bytes: Uint8Array, expect?: { inputs: number; classes: number }): Promise<OnnxClassifier> {
  configureOnnxRuntime();
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes);
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
