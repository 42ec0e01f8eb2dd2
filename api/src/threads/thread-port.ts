import { parentPort } from 'node:worker_threads';

/** Posts one message to the thread that started this one; `transfer`: buffers moved, not copied. */
export type Post = (message: object, transfer?: ArrayBuffer[]) => void;

/**
 * The thread's side of http/worker-thread.ts: `handle` gets every message the thread is sent (through
 * `parentPort` of node:worker_threads, as the other side made it with that module's `Worker`), and
 * `{ ready: true }` is posted once it is set: messages sent before may be lost, so the sender waits for it.
 */
export function serveThread<Message>(handle: (message: Message, post: Post) => void | Promise<void>): void {
  const port = parentPort;
  if (!port) throw new Error('serveThread: this module runs only as a thread (http/worker-thread.ts)');
  const post: Post = (message, transfer = []) => port.postMessage(message, transfer);
  port.on('message', (message: Message) => void handle(message, post));
  post({ ready: true });
}
