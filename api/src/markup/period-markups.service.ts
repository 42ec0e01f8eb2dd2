import { sql } from 'kysely';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import { badRequest, conflict } from '../http/errors';
import { boundedEnd, MAX_SEGMENT_MS, toIso } from '../http/time';
import type { PeriodMarkupsSaveInput } from './period-markups.schema';
import { bumpMarkupVersions, logActivities } from '../video/activity.service';
import { clipModelLayer, UNREVIEWED_SOURCE } from './model-layer.service';
import { lockStructureForSave, saveTransaction } from './save-lock.service';
import { assertRowInStructure, structureMembers } from './structure-members.service';

/**
 * The structure's markup over a period (spec 01 "Operation markup editing", `/edit/...`): the
 * same rows of the `markups` table the video screen edits, shown as absolute date-times.
 *
 * Conflicts: GET answers a `version` — a digest of every row overlapping the window. A save
 * carries it as `base_version`; if any of those rows changed since (here, on the video screen or
 * in another tab), the save is refused with 409 and nothing is written. Every video whose rows a
 * save touches gets its `markup_version` raised, so a video screen open on stale data gets its
 * own 409 instead of overwriting this save.
 */

export const PERIOD_STALE_MESSAGE =
  'Разметку этого периода уже изменили (в другой вкладке, на экране видео или другой пользователь). Загрузите её заново и повторите правку.';

export interface PeriodWindow {
  structureId: number;
  from: number;
  to: number;
}

/** The window's counted rows: a model's unreviewed layer is reviewed on the video screen, not here. */
const overlapping = (db: Db, w: PeriodWindow) =>
  db
    .selectFrom('markups')
    .where('structure_id', '=', w.structureId)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('start_time', '<', w.to)
    .where('end_time', '>', w.from);

/** Digest of every row overlapping the window, all fields that an edit can change. */
async function windowVersion(db: Db, w: PeriodWindow): Promise<string> {
  const rows = await overlapping(db, w)
    .select(['id', 'operation_id', 'workplace_id', 'employee_id', 'start_time', 'end_time', 'comment', 'video_id', 'updated_at'])
    .orderBy('id')
    .execute();
  const hasher = new Bun.CryptoHasher('sha256');
  for (const r of rows) {
    hasher.update(
      `${r.id}|${r.operation_id}|${r.workplace_id}|${r.employee_id}|${r.start_time}|${r.end_time}|${r.video_id}|${r.updated_at}|${r.comment ?? '\u0000'}\n`,
    );
  }
  return `${rows.length}-${hasher.digest('hex').slice(0, 24)}`;
}

/** The rows overlapping the window, newest first, with the window's version. */
export async function readPeriodMarkups(db: Db, structureId: number, from: number, to: number) {
  const w = { structureId, from, to };
  const rows = await overlapping(db, w)
    .select(['id', 'operation_id', 'workplace_id', 'employee_id', 'start_time', 'end_time', 'comment', 'video_id'])
    .orderBy('start_time', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    operation_markups: rows.map((row) => ({ ...row, start_time: toIso(row.start_time), end_time: toIso(boundedEnd(row.start_time, row.end_time)) })),
    version: await windowVersion(db, w),
  };
}

/**
 * A video of the structure that shows `at`: among the videos covering it, the camera that
 * already holds most markups of this workplace (a camera usually films one workplace), then the
 * lowest camera key. Null when no video covers the instant.
 */
async function videoCovering(db: Db, structureId: number, at: number, workplaceId: number): Promise<number | null> {
  const covering = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.camera_id', 'cameras.camera_key'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.duration', 'is not', null)
    .where(sql<boolean>`videos.start_time <= ${at} AND videos.start_time + videos.duration * 1000 > ${at}`)
    .orderBy('cameras.camera_key')
    .orderBy('videos.start_time', 'desc')
    .execute();
  if (covering.length <= 1) return covering[0]?.id ?? null;
  const usage = await db
    .selectFrom('markups')
    .innerJoin('videos', 'videos.id', 'markups.video_id')
    .select(['videos.camera_id', db.fn.countAll<number>().as('n')])
    .where('markups.workplace_id', '=', workplaceId)
    .where(
      'videos.camera_id',
      'in',
      covering.map((v) => v.camera_id),
    )
    .groupBy('videos.camera_id')
    .execute();
  const countOf = (cameraId: number) => Number(usage.find((u) => u.camera_id === cameraId)?.n ?? 0);
  const best = [...covering].sort((a, b) => countOf(b.camera_id) - countOf(a.camera_id) || a.camera_key - b.camera_key)[0]!;
  return best.id;
}

/** Whether the video still shows the instant (its span covers it). */
async function videoShows(db: Db, videoId: number, at: number): Promise<boolean> {
  const row = await db
    .selectFrom('videos')
    .select('id')
    .where('id', '=', videoId)
    .where('duration', 'is not', null)
    .where(sql<boolean>`start_time <= ${at} AND start_time + duration * 1000 > ${at}`)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Saves the period editor in one transaction: rows with an id are updated, rows without (or with
 * id ≤ 0) inserted, listed ids deleted. Everything is checked first; a refused save (400, 409)
 * writes nothing. Edited rows keep their video while it still shows their start; new rows (and
 * rows moved out of their video) are linked to a video of the structure covering their start,
 * or to none.
 */
export async function savePeriodMarkups(db: Db, user: SessionUser, w: PeriodWindow, input: PeriodMarkupsSaveInput) {
  await saveTransaction(db, async (tx) => {
    await lockStructureForSave(tx, w.structureId);
    const current = await windowVersion(tx, w);
    if (current !== input.base_version) throw conflict(PERIOD_STALE_MESSAGE, { current_version: current });
    const members = await structureMembers(tx, w.structureId);
    input.operation_markups.forEach((row, index) => {
      const where = `строка ${index + 1}`;
      if (!(row.start_time < row.end_time)) throw badRequest(`Начало операции должно быть раньше конца (${where})`);
      if (row.end_time - row.start_time > MAX_SEGMENT_MS) throw badRequest(`Операция длиннее суток — проверьте даты (${where})`);
      // The window's version covers only rows overlapping it: a row saved outside would escape the check.
      if (!(row.start_time < w.to && row.end_time > w.from)) throw badRequest(`Операция вне выбранного периода — проверьте даты (${where})`);
      assertRowInStructure(members, row, where);
    });
    const editedIds = input.operation_markups.map((r) => r.id ?? 0).filter((id) => id > 0);
    if (new Set(editedIds).size !== editedIds.length) throw badRequest('Одна и та же строка передана дважды');
    const touchedIds = [...editedIds, ...input.operation_markups_to_delete];
    const existing = touchedIds.length
      ? await tx
          .selectFrom('markups')
          .select(['id', 'video_id', 'start_time', 'end_time'])
          .where('structure_id', '=', w.structureId)
          .where('source', '!=', UNREVIEWED_SOURCE)
          .where('id', 'in', touchedIds)
          .execute()
      : [];
    const byId = new Map(existing.map((r) => [r.id, r]));
    const missing = touchedIds.filter((id) => !byId.has(id));
    if (missing.length) throw badRequest(`Строки ${[...new Set(missing)].join(', ')} не относятся к этой структурной единице`);
    const outside = existing.filter((r) => !(r.start_time < w.to && r.end_time > w.from)).map((r) => r.id);
    if (outside.length) throw badRequest(`Строки ${outside.join(', ')} вне выбранного периода: откройте период, в котором они лежат`);
    const both = editedIds.filter((id) => input.operation_markups_to_delete.includes(id));
    if (both.length) throw badRequest(`Строка ${both[0]} одновременно изменяется и удаляется`);

    const now = Date.now();
    const videos = new Set<number>();
    for (const id of input.operation_markups_to_delete) {
      const video = byId.get(id)!.video_id;
      if (video !== null) videos.add(video);
    }
    if (input.operation_markups_to_delete.length) {
      await tx.deleteFrom('markups').where('structure_id', '=', w.structureId).where('id', 'in', input.operation_markups_to_delete).execute();
    }
    for (const row of input.operation_markups) {
      const values = {
        operation_id: row.operation_id,
        workplace_id: row.workplace_id,
        employee_id: row.employee_id ?? null,
        start_time: row.start_time,
        end_time: row.end_time,
        comment: row.comment?.trim() ? row.comment : null,
        updated_at: now,
      };
      const old = row.id !== undefined && row.id > 0 ? byId.get(row.id)! : undefined;
      let videoId: number | null;
      if (old && old.video_id !== null && (old.start_time === row.start_time || (await videoShows(tx, old.video_id, row.start_time)))) {
        videoId = old.video_id;
      } else {
        videoId = await videoCovering(tx, w.structureId, row.start_time, row.workplace_id);
      }
      if (old?.video_id != null) videos.add(old.video_id);
      if (videoId !== null) videos.add(videoId);
      if (old) {
        await tx
          .updateTable('markups')
          .set({ ...values, video_id: videoId })
          .where('id', '=', old.id)
          .execute();
      } else {
        await tx
          .insertInto('markups')
          .values({
            ...values,
            structure_id: w.structureId,
            video_id: videoId,
            author_id: user.id,
            source: 'manual',
            created_at: now,
          })
          .execute();
      }
    }
    // Rows may reach past the window (up to a day): the layer is cut wherever they lie.
    for (const video of await clipModelLayer(tx, w.structureId, w.from - MAX_SEGMENT_MS, w.to + MAX_SEGMENT_MS)) videos.add(video);
    const ids = [...videos];
    await bumpMarkupVersions(tx, ids);
    await logActivities(
      tx,
      ids.map((videoId) => ({ videoId, authorId: user.id, at: now, comment: 'Разметка изменена в редакторе периода' })),
    );
  });
  return readPeriodMarkups(db, w.structureId, w.from, w.to);
}
