import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import { FiguresFold } from './figures';
import { commitFigures, figuresHead, FIGURES_MESSAGES, FIGURES_TEXT_MAX, inputsKey, trackBatches, type FiguresPayload } from './figures.service';
import { EVENT_MESSAGES } from './service';

/** Shares of the progress bar: the inputs read (the tracks, batch by batch, twice), then the computation. */
const READ_SHARE = 60;

/**
 * event_figures (docs/event-analytics.md «Цифры длинных окон»): the figures of a hall's long window,
 * computed as GET /api/v1/event/figures computes a short one (the same inputs, the same figures.ts code)
 * and stored with the digest of the inputs read, together with the job's success. The tracks are read
 * in batches of bounded text, twice (the heat maps' extents, then the figures), and folded in one batch
 * at a time (FiguresFold), so neither the stored text, nor its parsed points, nor the plan points sit in
 * memory for the whole window. Cancelled, it stops between batches or before the commit and writes
 * nothing; taken over after its worker died, it starts again (reading is all it does before the commit).
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
      const fold = new FiguresFold(head, window);
      const trackingIds = head.runs.map((r) => r.trackingId);
      // Two passes over the same batches: the heat maps' extents first, then the figures (FiguresFold).
      for (const pass of [0, 1]) {
        for await (const batch of trackBatches(db, trackingIds, signal)) {
          if (pass === 0) fold.measure(batch.tracks);
          else fold.add(batch.tracks);
          progress(5 + ((pass + (head.chars > 0 ? batch.chars / head.chars : 1)) * READ_SHARE) / 2);
        }
      }
      if (signal.aborted) return null;
      const figures = fold.figures();
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
