import { moveNetModel, moveNetStrips } from '@norma/workers/vision';
import type { MoveNetJob, MoveNetReply } from './movenet-threads';
import { serveThread } from './thread-port';

/*
 * A MoveNet thread (threads/movenet-threads.ts): its own ONNX Runtime session for the network and
 * TensorFlow.js wasm instance for the decoding, the model loaded when the thread starts and kept;
 * runs MoveNet on the strips of a decoded frame it is sent, one job at a time, answering each with
 * the people found on them (in source pixels, not merged).
 */
// Loads the model at once, before the first call needs it; its failure is thrown again by that call.
void moveNetModel().catch(() => {});

serveThread<MoveNetJob>(async ({ id, rgb, input, source, tiles, minScore }, post) => {
  let reply: MoveNetReply;
  try {
    const started = performance.now();
    reply = { id, humans: await moveNetStrips(rgb, input, source, tiles, minScore), ms: performance.now() - started };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  post(reply);
});
