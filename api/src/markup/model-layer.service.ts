import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { localDate, localDayBounds } from '../time-zone';

/**
 * A model's markups are a layer under review (docs/vision.md «Слой модели»). One `markups` table
 * holds everything; `source` says whether a row counts:
 *
 * - `'model'` — written by the applying job, not yet looked at by a person. Left out of every
 *   report (statement, block, interactive, summary, dump, the video's TSV, report dates, the
 *   period editor) and of training labels. Every such query filters with `.where(…source, '!=',
 *   UNREVIEWED_SOURCE)`.
 * - anything else — a person's row. Accepting a model segment (or correcting it) turns it into
 *   `'manual'` with the reviewer as author; `model_id` stays as the trace of where it came from.
 *
 * The layer never overlaps counted rows of the same workplace (clipModelLayer runs after every
 * write that can create such an overlap), so accepting one segment never double-counts time.
 */
export const UNREVIEWED_SOURCE = 'model';

/** A piece of a model segment shorter than this is dropped rather than kept as a sliver. */
const MIN_PIECE_MS = 1000;

/** [start, end) minus the sorted, possibly overlapping cuts: the pieces left, in order. */
export function subtractIntervals(start: number, end: number, cuts: { start: number; end: number }[]): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  let at = start;
  for (const cut of [...cuts].sort((a, b) => a.start - b.start)) {
    if (cut.end <= at || cut.start >= end) continue;
    if (cut.start > at) pieces.push({ start: at, end: cut.start });
    at = Math.max(at, cut.end);
    if (at >= end) break;
  }
  if (at < end) pieces.push({ start: at, end });
  return pieces;
}

/**
 * Replaces the model's unreviewed layer on the video inside [startInstant, endInstant) with the
 * segments (source 'model', no human author, the given employee, the class's mean probability);
 * parts of earlier ones outside the span stay, rows a person accepted stay, and the new layer is
 * cut where counted rows of the workplace lie. Runs inside the caller's transaction.
 */
export async function replaceModelLayer(
  trx: Db,
  model: { id: number; workplaceId: number },
  video: { id: number; structure_id: number; start_time: number },
  segments: { operationId: number; startSecond: number; endSecond: number; confidence: number; note?: string }[],
  target: { startInstant: number; endInstant: number; employeeId: number; now: number },
) {
  const { startInstant, endInstant, now } = target;
  const earlier = await trx
    .selectFrom('markups')
    .selectAll()
    .where('model_id', '=', model.id)
    .where('source', '=', UNREVIEWED_SOURCE)
    .where('video_id', '=', video.id)
    .where('start_time', '<', endInstant)
    .where('end_time', '>', startInstant)
    .execute();
  for (const row of earlier) {
    // Parts outside the span stay: only the span is recomputed.
    if (row.start_time < startInstant) await trx.updateTable('markups').set({ end_time: startInstant, updated_at: now }).where('id', '=', row.id).execute();
    if (row.end_time > endInstant) {
      const { id: _id, ...rest } = row;
      await trx
        .insertInto('markups')
        .values({ ...rest, start_time: endInstant, updated_at: now })
        .execute();
    }
    if (row.start_time >= startInstant) await trx.deleteFrom('markups').where('id', '=', row.id).execute();
  }
  if (segments.length)
    await trx
      .insertInto('markups')
      .values(
        segments.map((s) => ({
          structure_id: video.structure_id,
          operation_id: s.operationId,
          workplace_id: model.workplaceId,
          employee_id: target.employeeId,
          start_time: video.start_time + Math.round(s.startSecond * 1000),
          end_time: video.start_time + Math.round(s.endSecond * 1000),
          comment: s.note ? `Модель ${model.id}: ${s.note}` : `Модель ${model.id}`,
          video_id: video.id,
          author_id: null,
          source: UNREVIEWED_SOURCE,
          model_id: model.id,
          confidence: Math.round(s.confidence * 1000) / 1000,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  await clipModelLayer(trx, video.structure_id, startInstant, endInstant, video.id);
}

/**
 * Remembers the unreviewed model segments among `ids` of the video that a save deletes (a person
 * rejected them; issue 43): re-applying the same model does not bring them back. Runs inside the
 * save's transaction, before the rows go.
 */
export async function rememberRejections(trx: Db, videoId: number, ids: number[], user: { id: string }, now: number) {
  const rejected = await trx
    .selectFrom('markups')
    .select(['model_id', 'workplace_id', 'operation_id', 'start_time', 'end_time'])
    .where('video_id', '=', videoId)
    .where('id', 'in', ids)
    .where('source', '=', UNREVIEWED_SOURCE)
    .where('model_id', 'is not', null)
    .execute();
  if (rejected.length === 0) return;
  await trx
    .insertInto('model_rejections')
    .values(rejected.map((r) => ({ ...r, video_id: videoId, rejected_by: user.id, rejected_at: now })))
    .execute();
}

/** The rejected model segments of a workplace on a video that overlap [from, to) (ms), any model's. */
export async function modelRejections(db: Db, scope: { videoId: number; workplaceId: number; from: number; to: number }) {
  return await db
    .selectFrom('model_rejections')
    .select(['model_id', 'operation_id', 'start_time', 'end_time'])
    .where('video_id', '=', scope.videoId)
    .where('workplace_id', '=', scope.workplaceId)
    .where('start_time', '<', scope.to)
    .where('end_time', '>', scope.from)
    .execute();
}

/** The rows clipModelLayer removed and the pieces it wrote in their place, with their videos. */
export interface ModelLayerChanges {
  deleted: { id: number; videoId: number | null }[];
  inserted: { id: number; videoId: number | null }[];
}

/**
 * Cuts the model layer of the structure inside [from, to) (of one video, when given) where counted
 * rows of the same workplace lie: a segment keeps only the pieces outside them (pieces under a
 * second go). Runs inside the caller's transaction. Answers the videos whose rows changed (their
 * markup version must rise); `log`, when given, receives the ids removed and written (a save's
 * reply of changes carries them, docs/api.md).
 */
export async function clipModelLayer(db: Db, structureId: number, from: number, to: number, videoId?: number, log?: ModelLayerChanges): Promise<Set<number>> {
  const changed = new Set<number>();
  let query = db
    .selectFrom('markups')
    .selectAll()
    .where('structure_id', '=', structureId)
    .where('source', '=', UNREVIEWED_SOURCE)
    .where('start_time', '<', to)
    .where('end_time', '>', from);
  if (videoId !== undefined) query = query.where('video_id', '=', videoId);
  const layer = await query.execute();
  if (layer.length === 0) return changed;
  const lo = Math.min(...layer.map((r) => r.start_time));
  const hi = Math.max(...layer.map((r) => r.end_time));
  const counted = await db
    .selectFrom('markups')
    .select(['workplace_id', 'start_time', 'end_time'])
    .where('structure_id', '=', structureId)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('workplace_id', 'in', [...new Set(layer.map((r) => r.workplace_id))])
    .where('start_time', '<', hi)
    .where('end_time', '>', lo)
    .execute();
  if (counted.length === 0) return changed;
  const now = Date.now();
  for (const row of layer) {
    const cuts = counted.filter((c) => c.workplace_id === row.workplace_id).map((c) => ({ start: c.start_time, end: c.end_time }));
    const pieces = subtractIntervals(row.start_time, row.end_time, cuts);
    if (pieces.length === 1 && pieces[0]!.start === row.start_time && pieces[0]!.end === row.end_time) continue;
    const kept = pieces.filter((p) => p.end - p.start >= MIN_PIECE_MS);
    if (row.video_id !== null) changed.add(row.video_id);
    await db.deleteFrom('markups').where('id', '=', row.id).execute();
    log?.deleted.push({ id: row.id, videoId: row.video_id });
    if (kept.length === 0) continue;
    const { id: _id, ...rest } = row;
    const written = await db
      .insertInto('markups')
      .values(kept.map((p) => ({ ...rest, start_time: p.start, end_time: p.end, updated_at: now })))
      .returning('id')
      .execute();
    log?.inserted.push(...written.map((w) => ({ id: w.id, videoId: row.video_id })));
  }
  return changed;
}

/**
 * The employee a model's segments get when the analyst picks none: whoever holds most counted time
 * at the workplace on the local day (organisation's time zone) the span starts in — the
 * workplace's employee for that shift. None found: 400, the analyst must pick one.
 */
export async function workplaceEmployee(
  db: Db,
  target: { structureId: number; workplaceId: number; workplaceName: string; at: number; timeZone: string },
): Promise<number> {
  const [from, to] = localDayBounds(localDate(target.at, target.timeZone), target.timeZone);
  const rows = await db
    .selectFrom('markups')
    .select(['employee_id', 'start_time', 'end_time'])
    .where('structure_id', '=', target.structureId)
    .where('workplace_id', '=', target.workplaceId)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('employee_id', 'is not', null)
    .where('start_time', '<', to)
    .where('end_time', '>', from)
    .execute();
  const time = new Map<number, number>();
  for (const r of rows) time.set(r.employee_id!, (time.get(r.employee_id!) ?? 0) + Math.min(r.end_time, to) - Math.max(r.start_time, from));
  const best = [...time].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (!best)
    throw badRequest(
      `В этот день у рабочего места «${target.workplaceName}» нет размеченного сотрудника: выберите сотрудника, которому запишется разметка модели`,
    );
  return best[0];
}
