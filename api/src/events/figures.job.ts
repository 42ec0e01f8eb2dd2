import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import { figuresOf } from './figures';
import { commitFigures, figuresHead, figuresTracks, FIGURES_MESSAGES, FIGURES_TEXT_MAX, inputsKey, type FiguresPayload } from './figures.service';
import { EVENT_MESSAGES } from './service';

/** Shares of the progress bar: the inputs read (the tracks, one tracking at a time), then the computation. */
const READ_SHARE = 60;

/**
 * event_figures (docs/event-analytics.md «Цифры длинных окон»): the figures of a hall's long window,
 * computed as GET /api/v1/event/figures computes a short one (figures.ts figuresOf, the same inputs
 * read by the same functions) and stored with the digest of the inputs read, together with the job's
 * success. Cancelled, it stops between trackings read or before the commit and writes nothing; taken
 * over after its worker died, it starts again (reading is all it does before the commit).
 */
export function figuresHandler(db: Db): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const payload = job.payload as FiguresPayload;
      const window = { structureId: payload.structure_id, fromMs: payload.from, toMs: payload.to };
      const head = await figuresHead(db, window);
      if (head.chars > FIGURES_TEXT_MAX) throw new PermanentJobError(EVENT_MESSAGES.figuresTooMuch);
      const key = inputsKey(head, window);
      progress(5);
      const tracks = await figuresTracks(
        db,
        head.runs.map((r) => r.trackingId),
        (share) => progress(5 + share * READ_SHARE),
        signal,
      );
      if (!tracks || signal.aborted) return null;
      const figures = figuresOf({ ...head, tracks }, window);
      progress(5 + READ_SHARE + 25);
      if (signal.aborted) return null;
      const committed = await commitFigures(db, { id: job.id, workerId }, payload.figures_id, key, JSON.stringify(figures));
      if (committed === 'gone') throw new PermanentJobError(FIGURES_MESSAGES.removed);
      if (committed === 'cancelled') return null;
      progress(100);
      return { figures_id: payload.figures_id, visitors: figures.visitors };
    },
  };
}
