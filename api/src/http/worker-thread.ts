/**
 * One worker thread that answers messages by id: the plumbing shared by the report threads
 * (threads/report-threads.ts), the document thread (http/document-threads.ts) and the MoveNet threads
 * (threads/movenet-threads.ts). The thread posts
 * `{ ready: true }` once its handler is set (a message sent earlier may be lost), then one reply
 * `{ id, … }` per message; messages are sent only after that. If the thread dies, every message in
 * flight fails.
 */
export interface WorkerThread<Reply extends { id: number }> {
  /** Messages sent and not yet answered. */
  readonly inFlight: number;
  /** Sends `message` with a fresh id (`transfer`: buffers moved, not copied); resolves with the thread's reply to it. */
  send(message: object, transfer?: Transferable[]): Promise<Reply>;
  close(): void;
}

export function startWorkerThread<Reply extends { id: number }>(url: URL, name: string): WorkerThread<Reply> {
  const worker = new Worker(url.href);
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (err: Error) => void }>();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  worker.onmessage = (event: MessageEvent<Reply | { ready: true }>) => {
    if ('ready' in event.data) return markReady();
    const reply = event.data;
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  };
  worker.onerror = (event) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${name} failed: ${event.message}`));
    pending.clear();
  };
  let nextId = 1;
  return {
    get inFlight() {
      return pending.size;
    },
    send(message, transfer = []) {
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        void ready.then(() => worker.postMessage({ ...message, id }, transfer));
      });
    },
    close() {
      worker.terminate();
    },
  };
}
