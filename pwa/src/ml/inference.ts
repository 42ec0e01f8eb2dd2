import { apiUrl } from '../api/paths';
import type { InferenceBackend, WorkerReply, WorkerRequest } from './protocol';
import type { BrowserVisionSpec } from './spec';

export type { InferenceBackend };

type Pending = { resolve(reply: WorkerReply): void; reject(error: Error): void };
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/**
 * A model opened in the browser: its ONNX file runs in a Web Worker with onnxruntime-web
 * (WebGPU when the browser has an adapter, wasm otherwise), on features computed exactly as the
 * server computes them (docs/vision.md «Экраны и вывод в браузере»).
 */
export class BrowserModel {
  private nextId = 1;
  private pending = new Map<number, Pending>();

  private constructor(
    private readonly worker: Worker,
    readonly backend: InferenceBackend,
    readonly spec: BrowserVisionSpec,
  ) {}

  /** Opens a model from the file's bytes (`backend: 'wasm'` forces the wasm backend). */
  static async fromBytes(bytes: ArrayBuffer, options: { backend?: InferenceBackend } = {}): Promise<BrowserModel> {
    const worker = new Worker(new URL('./inference.worker.ts', import.meta.url), { type: 'module', name: 'norma-inference' });
    const pending = new Map<number, Pending>();
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const waiting = pending.get(event.data.id);
      if (!waiting) return;
      pending.delete(event.data.id);
      if (event.data.type === 'error') waiting.reject(new Error(event.data.message));
      else waiting.resolve(event.data);
    };
    worker.onerror = (event) => {
      const error = new Error(event.message || 'Модуль вывода модели не загрузился');
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    const send = (request: WorkerRequest, transfer: Transferable[] = []) =>
      new Promise<WorkerReply>((resolve, reject) => {
        pending.set(request.id, { resolve, reject });
        worker.postMessage(request, transfer);
      });
    try {
      const reply = await send({ id: 0, type: 'load', model: bytes, backend: options.backend });
      if (reply.type !== 'loaded') throw new Error('Модуль вывода ответил не то');
      const model = new BrowserModel(worker, reply.backend, reply.spec);
      model.pending = pending;
      return model;
    } catch (err) {
      worker.terminate();
      throw err;
    }
  }

  /** Downloads a trained model's ONNX file (GET /api/v1/model/{id}/onnx) and opens it. */
  static async open(modelId: number): Promise<BrowserModel> {
    const response = await fetch(apiUrl('/api/v1/model/{id}/onnx', { path: { id: modelId } }), { credentials: 'same-origin' });
    if (!response.ok) {
      // The same message the API client would show.
      const message = await response
        .json()
        .then((body: { error?: { message?: string } }) => body.error?.message)
        .catch(() => undefined);
      throw new Error(message ?? `Файл модели не загрузился (${response.status})`);
    }
    return BrowserModel.fromBytes(await response.arrayBuffer());
  }

  private call(request: Request, transfer: Transferable[] = []): Promise<WorkerReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** Class probabilities (rows × classes) for consecutive gray frames at the model's working size and fps. */
  async probabilities(frames: Uint8Array[]): Promise<{ rows: number; classes: number; data: Float32Array }> {
    const buffers = frames.map((f) => f.slice().buffer);
    const reply = await this.call({ type: 'frames', frames: buffers }, buffers);
    if (reply.type !== 'probabilities') throw new Error('Модуль вывода ответил не то');
    return reply;
  }

  /**
   * Feeds one RGBA frame of playback; answers the class probabilities of the step half a second back
   * once a second of frames is in, and whether the model is «не уверена» there (as the applying job).
   */
  async live(rgba: ImageData, second: number): Promise<{ second: number; probabilities: Float32Array | null; uncertain: boolean }> {
    const buffer = rgba.data.slice().buffer;
    const reply = await this.call({ type: 'live', rgba: buffer, width: rgba.width, height: rgba.height, second }, [buffer]);
    if (reply.type !== 'suggestion') throw new Error('Модуль вывода ответил не то');
    return reply;
  }

  reset(): Promise<WorkerReply> {
    return this.call({ type: 'reset' });
  }

  close() {
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new Error('Модель закрыта'));
    this.pending.clear();
  }
}
