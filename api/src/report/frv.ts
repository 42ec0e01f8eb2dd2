import { assembleInteractiveFrv } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import type { InteractiveFrvBody } from './schema';
import { loadReportInputs } from './service';

/**
 * GET /api/v2/frv (interactive report): the markups of the window in time order, each clipped
 * to the window and mapped onto EVERY video file of the structure that covers part of it — any
 * camera, clipped to each file's span, as seconds from that file's start. Assembled by
 * @norma/core-wasm/report from the report inputs, as in the PWA.
 */
export async function buildInteractiveFrv(db: Db, structureId: number, from: number, to: number): Promise<InteractiveFrvBody> {
  return assembleInteractiveFrv(await loadReportInputs(db, structureId, from, to));
}
