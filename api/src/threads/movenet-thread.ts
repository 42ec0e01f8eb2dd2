/// <reference lib="webworker" />
import { detectByMoveNet, type SourceVideo } from '@norma/workers/vision';
import type { MoveNetReply } from './movenet-threads';

/*
 * The MoveNet thread (threads/movenet-threads.ts): loads the model on its first job and keeps it;
 * decodes the asked frame and runs MoveNet on it, one job at a time, answering each with the people found.
 */
declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ id: number; source: SourceVideo; second: number }>) => {
  const { id, source, second } = event.data;
  let reply: MoveNetReply;
  try {
    reply = { id, humans: await detectByMoveNet(source, second) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};

// Messages sent before the thread has set its handler may be lost: the pool waits for this.
self.postMessage({ ready: true });
