import { Worker } from 'node:worker_threads';

/**
 * One worker thread that answers messages by id: the plumbing shared by the report threads
 * (threads/report-threads.ts), the document thread (http/document-threads.ts), the MoveNet threads
 * (threads/movenet-threads.ts) and the basemap build (map/basemap.ts). The thread (threads/*-thread.ts,
 * `parentPort` of node:worker_threads) posts `{ ready: true }` once its handler is set (a message sent
 * earlier may be lost), then one reply `{ id, … }` per message; messages are sent only after that. If
 * the thread dies, every message in flight fails, and so does every later one.
 *
 * The thread is made with the `Worker` imported from node:worker_threads, never the global `Worker`:
 * a library may replace a global (onnxruntime-web's wasm loader sets `globalThis.Worker` to
 * node:worker_threads' class, which refuses a file: URL string), and an import binding cannot be
 * replaced (docs/architecture.md «Глобальные объекты»).
 */
export interface WorkerThread<Reply extends { id: number }> {
  /** Messages sent and not yet answered. */
  readonly inFlight: number;
  /** Sends `message` with a fresh id (`transfer`: buffers moved, not copied); resolves with the thread's reply to it. */
  send(message: object, transfer?: ArrayBuffer[]): Promise<Reply>;
  close(): void;
}

export function startWorkerThread<Reply extends { id: number }>(url: URL, name: string): WorkerThread<Reply> {
  const worker = new Worker(url);
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (err: Error) => void }>();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let failure: Error | null = null;
  const fail = (err: Error) => {
    failure ??= err;
    for (const waiter of pending.values()) waiter.reject(err);
    pending.clear();
  };
  worker.on('message', (data: Reply | { ready: true }) => {
    if ('ready' in data) return markReady();
    pending.get(data.id)?.resolve(data);
    pending.delete(data.id);
  });
  worker.on('error', (err: Error) => fail(new Error(`${name} failed: ${err.message}`)));
  worker.on('exit', (code: number) => fail(new Error(`${name} stopped (exit code ${code})`)));
  let nextId = 1;
  return {
    get inFlight() {
      return pending.size;
    },
    send(message, transfer = []) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        void ready.then(() => worker.postMessage({ ...message, id }, transfer));
      });
    },
    close() {
      void worker.terminate();
    },
  };
}
