import type { PosedHuman } from '../../../workers/src/vision/movenet-decode';
import type { PoseBackend, PoseReply, PoseRequest } from './pose-protocol';

export type { PoseBackend, PosedHuman };

type Pending = { resolve(reply: PoseReply): void; reject(error: Error): void };
type Request = PoseRequest extends infer R ? (R extends PoseRequest ? Omit<R, 'id'> : never) : never;

/**
 * People and their poses on a picture, found in the browser by MoveNet multipose in a Web Worker
 * (pose.worker.ts; docs/vision.md «Детектор людей»): the model files come from the app itself.
 */
export class PoseDetector {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly worker: Worker;
  backend: PoseBackend = 'wasm';

  private constructor() {
    this.worker = new Worker(new URL('./pose.worker.ts', import.meta.url), { type: 'module', name: 'norma-pose' });
    this.worker.onmessage = (event: MessageEvent<PoseReply>) => {
      const waiting = this.pending.get(event.data.id);
      if (!waiting) return;
      this.pending.delete(event.data.id);
      if (event.data.type === 'error') waiting.reject(new Error(event.data.message));
      else waiting.resolve(event.data);
    };
    this.worker.onerror = (event) => {
      const error = new Error(event.message || 'Модуль поиска людей не загрузился');
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
  }

  /** Starts the worker and loads the model (`backend` forces one; by default WebGPU, WebGL, wasm — the first that runs). */
  static async open(options: { backend?: PoseBackend } = {}): Promise<PoseDetector> {
    const detector = new PoseDetector();
    try {
      const reply = await detector.send({ type: 'load', backend: options.backend });
      if (reply.type !== 'loaded') throw new Error('Модуль поиска людей ответил не то');
      detector.backend = reply.backend;
      return detector;
    } catch (err) {
      detector.close();
      throw err;
    }
  }

  /** People on a picture (a canvas or its pixels), in its pixels, and how long the worker took. */
  async detect(picture: HTMLCanvasElement | ImageData): Promise<{ people: PosedHuman[]; milliseconds: number }> {
    const image = picture instanceof ImageData ? picture : picture.getContext('2d')!.getImageData(0, 0, picture.width, picture.height);
    const rgba = image.data.slice().buffer;
    const reply = await this.send({ type: 'detect', rgba, width: image.width, height: image.height }, [rgba]);
    if (reply.type !== 'people') throw new Error('Модуль поиска людей ответил не то');
    return { people: reply.people, milliseconds: reply.milliseconds };
  }

  close() {
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new Error('Поиск людей закрыт'));
    this.pending.clear();
  }

  private send(request: Request, transfer: Transferable[] = []): Promise<PoseReply> {
    const id = this.nextId++;
    return new Promise<PoseReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as PoseRequest, transfer);
    });
  }
}
