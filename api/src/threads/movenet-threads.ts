import type { PosedHuman, SourceVideo } from '@norma/workers/vision';
import { startWorkerThread } from '../http/worker-thread';

export type MoveNetReply = { id: number; humans: PosedHuman[] } | { id: number; error: string };

export interface MoveNetThread {
  /** MoveNet's people on the frame at `second`, found on the MoveNet thread; its failure is thrown here again. */
  detect(source: SourceVideo, second: number): Promise<PosedHuman[]>;
  close(): void;
}

/**
 * The thread that runs MoveNet for GET /api/v1/humans (docs/vision.md «Детектор людей»), started by
 * main.ts; without it — in the API tests — MoveNet runs in place. Why: one inference holds its thread
 * for a second or more (several under load); on the thread that answers every call it would stall
 * everyone else's. One thread, the model loaded once and kept; jobs wait their turn there, and fair
 * share (http/fair-share.ts) already bounds how many are in flight.
 */
export function startMoveNetThread(): MoveNetThread {
  const thread = startWorkerThread<MoveNetReply>(new URL('./movenet-thread.ts', import.meta.url), 'MoveNet thread');
  return {
    async detect(source, second) {
      const reply = await thread.send({ source, second });
      if ('error' in reply) throw new Error(reply.error);
      return reply.humans;
    },
    close: () => thread.close(),
  };
}
