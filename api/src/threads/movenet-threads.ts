import {
  decodeMoveNetFrame,
  mergeOverlapping,
  MOVENET_COLUMNS,
  stripTiles,
  type MoveNetFrame,
  type PosedHuman,
  type SourceVideo,
  type Tile,
} from '@norma/workers/vision';
import { startWorkerThread } from '../http/worker-thread';

/** A job for a MoveNet thread: the strips `tiles` of one decoded frame. */
export interface MoveNetJob {
  id: number;
  rgb: Uint8Array;
  input: { width: number; height: number };
  source: { width: number; height: number };
  tiles: Tile[];
  /** Lowest score kept (default MOVENET_MIN_SCORE; the tracking job asks down to its tracker's second stage). */
  minScore?: number;
}

/** People on each of the job's strips (source pixels, not merged) and how long MoveNet took on them, or why it failed. */
export type MoveNetReply = { id: number; humans: PosedHuman[][]; ms: number } | { id: number; error: string };

export interface MoveNetThread {
  /** MoveNet's people on the frame at `second`, found on the MoveNet threads; their failure is thrown here again. */
  detect(source: SourceVideo, second: number): Promise<PosedHuman[]>;
  /** MoveNet's people on a frame already decoded at the model's input size (the tracking job decodes a whole span once). */
  detectFrame(frame: MoveNetFrame, source: { width: number; height: number }, minScore?: number): Promise<PosedHuman[]>;
  close(): void;
}

/**
 * The threads that run MoveNet for GET /api/v1/humans (docs/vision.md «Детектор людей», «Полосы»),
 * started by main.ts; without them — in most API tests — MoveNet runs in place. Why threads: one
 * inference holds its thread for a second or more (several under load); on the thread that answers
 * every call it would stall everyone else's. Why `count` of them (by default one per strip, two):
 * a frame is cut into strips (MoveNet sees at most six people per picture) and each thread runs
 * its strips at the same time as the others — on two cores a call takes about one strip's time,
 * not two. Each thread has its own copy of the model (an ONNX Runtime session with one kernel
 * thread for the network, a TensorFlow.js wasm instance for the decoding), loaded once when the
 * thread starts and kept. The frame is decoded here, by an ffmpeg process
 * (this thread only waits for it), and sent to every thread; the people of all strips are merged
 * here as moveNetPeople merges them in place, so the answer is the same. Every call sends one job
 * to each thread, in the order the calls came: calls wait their turn, and fair share
 * (http/fair-share.ts) already bounds how many are in flight.
 */
export function startMoveNetThreads(count = MOVENET_COLUMNS): MoveNetThread {
  const threads = Array.from({ length: Math.max(1, count) }, (_, i) =>
    startWorkerThread<MoveNetReply>(new URL('./movenet-thread.ts', import.meta.url), `MoveNet thread ${i + 1}`),
  );
  const detectFrame: MoveNetThread['detectFrame'] = async (frame, source, minScore) => {
    const tiles = stripTiles(frame.input.width, MOVENET_COLUMNS);
    // Strip i goes to thread i mod count: with one thread it runs every strip, one after another.
    const replies = await Promise.all(
      threads.map((thread, i) => {
        const mine = tiles.filter((_, t) => t % threads.length === i);
        return mine.length
          ? thread.send({ rgb: frame.rgb, input: frame.input, source: { width: source.width, height: source.height }, tiles: mine, minScore })
          : null;
      }),
    );
    const byThread = replies.map((reply) => {
      if (reply && 'error' in reply) throw new Error(reply.error);
      return reply?.humans ?? [];
    });
    // In strip order, as moveNetPeople has them, so that equal scores merge the same way: strip t is
    // the (t div count)-th strip of thread t mod count.
    const inStripOrder = tiles.flatMap((_, t) => byThread[t % threads.length]![Math.floor(t / threads.length)]!);
    return mergeOverlapping(inStripOrder);
  };
  return {
    async detect(source, second) {
      const frame = await decodeMoveNetFrame(source, second);
      return frame ? detectFrame(frame, source) : [];
    },
    detectFrame,
    close: () => threads.forEach((thread) => thread.close()),
  };
}
