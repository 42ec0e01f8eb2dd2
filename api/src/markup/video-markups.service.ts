import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { findGaps, type Interval } from '@norma/core-wasm';
import { partsOutside, shiftBreakIntervals } from '@norma/core-wasm/report';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import { badRequest, conflict, notFound } from '../http/errors';
import { boundedEnd, MAX_SEGMENT_MS, MAX_SEGMENT_SECONDS, MAX_VIDEO_SECONDS } from '../http/time';
import { formatLocalDateTime } from '../time-zone';
import { bumpMarkupVersions, logActivities, recordMarkupSave } from '../video/activity.service';
import { clipModelLayer, rememberRejections, UNREVIEWED_SOURCE, type ModelLayerChanges } from './model-layer.service';
import { lockStructureForSave, saveTransaction } from './save-lock.service';
import { assertRowInStructure, structureMembers } from './structure-members.service';
import { tsvText } from '../http/tsv';
import { parseBreakIntervals } from '../org/settings.service';

export interface VideoMarkupInput {
  id?: number;
  operation_id: number;
  workplace_id: number;
  employee_id?: number | null;
  start_time: number;
  end_time: number;
  comment?: string | null;
}

export interface VideoStampInput {
  id?: number;
  type: string;
  time: number;
  comment?: string;
  employee_id?: number | null;
}

export interface VideoMarkupsSaveInput {
  video_markups: VideoMarkupInput[];
  operation_markups_to_delete: number[];
  video_stamps: VideoStampInput[];
  video_stamps_to_delete: number[];
  base_version: number;
  client_save_id?: string;
}

interface VideoContext {
  id: number;
  structureId: number;
  /** ms since epoch */
  start: number;
  /** seconds, when known */
  duration: number | null;
  version: number;
}

export const SAVE_ID_REUSED_MESSAGE =
  'Ключ сохранения client_save_id уже использован для другого изменения: повторная отправка должна совпадать с первой. Обновите страницу и сохраните заново.';
export const SAVE_ID_OTHER_USER_MESSAGE = 'Ключ сохранения client_save_id уже использован другим пользователем: сохраните заново.';

export const START_UNKNOWN_MESSAGE = 'Начало этой записи не указано: укажите его на экране загрузки, и запись станет доступна для разметки';

export const STALE_VERSION_MESSAGE =
  'Разметку этого видео уже изменил другой пользователь или другая вкладка. Загрузите свежую версию или сохраните поверх неё.';

async function videoContext(db: Db, videoId: number): Promise<VideoContext> {
  const row = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'cameras.structure_id', 'videos.start_time', 'videos.duration', 'videos.markup_version', 'videos.start_source'])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
  if (!row) throw notFound('Видео не найдено');
  // Markup keyed to a start nobody gave would land at the upload's moment (video/recording-start.service.ts).
  if (row.start_source === 'unknown') throw conflict(START_UNKNOWN_MESSAGE);
  return { id: row.id, structureId: row.structure_id, start: row.start_time, duration: row.duration, version: row.markup_version };
}

/** Seconds in the video ↔ absolute instants (ms), rounded to whole milliseconds. */
const toInstant = (video: VideoContext, seconds: number) => video.start + Math.round(seconds * 1000);
const toSeconds = (video: VideoContext, instant: number) => (instant - video.start) / 1000;

/** The markups and stamps of a video, in seconds from its start, ordered by start. */
export async function readVideoMarkups(db: Db, videoId: number) {
  const video = await videoContext(db, videoId);
  return { ...(await videoRows(db, video)), version: video.version };
}

/** Ids in chunks small enough for any database's parameter limit. */
const chunks = (ids: number[], size = 500) => Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));

/** The video's rows (all, or only those of the given ids), in seconds from its start, ordered by start. */
async function videoRows(db: Db, video: VideoContext, only?: { markups: number[]; stamps: number[] }) {
  const markupChunks = only ? chunks(only.markups) : [null];
  const stampChunks = only ? chunks(only.stamps) : [null];
  // One after another: inside a transaction the queries share one connection.
  const markups = [];
  for (const ids of markupChunks) markups.push(...(await markupRows(db, video.id, ids)));
  const stamps = [];
  for (const ids of stampChunks) stamps.push(...(await stampRows(db, video.id, ids)));
  if (only) {
    markups.sort((a, b) => a.start_time - b.start_time || a.id - b.id);
    stamps.sort((a, b) => a.at - b.at);
  }
  const author = (first: string | null, last: string | null) => (first ? `${first} ${last ?? ''}`.trim() : null);
  return {
    video_markups: markups.map((m) => ({
      id: m.id,
      operation_id: m.operation_id,
      workplace_id: m.workplace_id,
      employee_id: m.employee_id,
      start_time: toSeconds(video, m.start_time),
      end_time: toSeconds(video, boundedEnd(m.start_time, m.end_time)),
      comment: m.comment,
      source: m.source,
      confidence: m.confidence,
      author_name: author(m.firstName, m.lastName),
    })),
    video_stamps: stamps.map((s) => ({
      id: s.id,
      type: s.type,
      time: toSeconds(video, s.at),
      comment: s.comment,
      employee_id: s.employee_id,
      author_name: author(s.firstName, s.lastName),
    })),
  };
}

/** Markup rows of a video (only `ids`, unless null), ordered by start. */
async function markupRows(db: Db, videoId: number, ids: number[] | null) {
  if (ids?.length === 0) return [];
  let query = db
    .selectFrom('markups')
    .leftJoin('user', 'user.id', 'markups.author_id')
    .select([
      'markups.id',
      'operation_id',
      'workplace_id',
      'employee_id',
      'markups.start_time',
      'markups.end_time',
      'comment',
      'source',
      'confidence',
      'user.firstName',
      'user.lastName',
    ])
    .where('video_id', '=', videoId);
  if (ids) query = query.where('markups.id', 'in', ids);
  return await query.orderBy('markups.start_time').orderBy('markups.id').execute();
}

/** Note stamps of a video (only `ids`, unless null), ordered by time. */
async function stampRows(db: Db, videoId: number, ids: number[] | null) {
  if (ids?.length === 0) return [];
  let query = db
    .selectFrom('video_stamps')
    .leftJoin('user', 'user.id', 'video_stamps.author_id')
    .select(['video_stamps.id', 'type', 'at', 'comment', 'employee_id', 'user.firstName', 'user.lastName'])
    .where('video_id', '=', videoId);
  if (ids) query = query.where('video_stamps.id', 'in', ids);
  return await query.orderBy('at').execute();
}

/** Checks every row before anything is written; the message names the row (1-based) and the problem. */
async function validate(db: Db, video: VideoContext, input: VideoMarkupsSaveInput) {
  const members = await structureMembers(db, video.structureId);
  // Unknown duration: still no later than the longest file the API accepts.
  const limit = Math.min(video.duration === null ? MAX_VIDEO_SECONDS : video.duration + 1, MAX_VIDEO_SECONDS);
  input.video_markups.forEach((row, index) => {
    const where = `строка ${index + 1}`;
    if (!(row.start_time < row.end_time)) throw badRequest(`Начало операции должно быть раньше конца (${where})`);
    // An operation may run on into the next file of the camera, but it must start inside this one.
    if (row.start_time >= limit) throw badRequest(`Операция начинается после конца видео (${where})`);
    if (row.end_time - row.start_time > MAX_SEGMENT_SECONDS) throw badRequest(`Операция длиннее суток — проверьте конец (${where})`);
    assertRowInStructure(members, row, where);
  });
  const stampTypes = new Set((await db.selectFrom('video_stamp_types').select('type').execute()).map((r) => r.type));
  input.video_stamps.forEach((stamp, index) => {
    if (!stampTypes.has(stamp.type)) throw badRequest(`Неизвестный тип отметки «${stamp.type}» (отметка ${index + 1})`);
    if (stamp.time > limit) throw badRequest(`Отметка за концом видео (отметка ${index + 1})`);
    if (stamp.employee_id != null && !members.employees.has(stamp.employee_id))
      throw badRequest(`Сотрудник не из этой структурной единицы (отметка ${index + 1})`);
  });
  const own = async (table: 'markups' | 'video_stamps', ids: number[], what: string) => {
    if (ids.length === 0) return;
    const found = await db.selectFrom(table).select('id').where('video_id', '=', video.id).where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw badRequest(`${what} ${missing.join(', ')} не относятся к этому видео`);
  };
  await own('markups', [...input.video_markups.map((m) => m.id ?? -1).filter((id) => id > 0), ...input.operation_markups_to_delete], 'Операции');
  await own('video_stamps', [...input.video_stamps.map((s) => s.id ?? -1).filter((id) => id > 0), ...input.video_stamps_to_delete], 'Отметки');
}

/** What a client_save_id stands for: the video, the kind of save and every field sent with it. */
function saveDigest(videoId: number, fillGaps: boolean, input: VideoMarkupsSaveInput): string {
  const { client_save_id: _key, ...payload } = input;
  return createHash('sha256').update(JSON.stringify({ videoId, fillGaps, payload })).digest('hex');
}

const isEmptySave = (input: VideoMarkupsSaveInput) =>
  input.video_markups.length === 0 &&
  input.operation_markups_to_delete.length === 0 &&
  input.video_stamps.length === 0 &&
  input.video_stamps_to_delete.length === 0;

/** What one save wrote on its video: rows written (inserted or updated) and rows removed, by id. */
interface SaveChanges {
  markups: Set<number>;
  stamps: Set<number>;
  deletedMarkups: Set<number>;
  deletedStamps: Set<number>;
}

/** `full` — the whole refreshed markup (spec 02); `changes` — only what the save changed (docs/api.md). */
export type SaveReplyKind = 'full' | 'changes';

/**
 * Saves the changed rows of a video's markup in one transaction: inserts rows with id -1 (or none),
 * updates rows with an id, deletes the listed ids. The save must name the version it is based on:
 * another current version is refused (409). A repeated client_save_id of the same user with the
 * same payload returns the current state without applying anything twice; the same key with
 * another payload, video or user is refused (400). An empty save (nothing to write, no gap
 * filling) changes nothing, not even the version.
 * With `fillGaps`, every uncovered interval then becomes a segment of the structure's idle operation.
 * With `reply: 'changes'` the answer holds only the rows this save wrote on the video (the model's
 * rows it clipped included), the ids it removed and the new version; a replayed save answers the
 * whole markup with `complete: true`.
 */
export async function saveVideoMarkups(
  db: Db,
  user: SessionUser,
  videoId: number,
  input: VideoMarkupsSaveInput,
  { fillGaps = false, reply = 'full' }: { fillGaps?: boolean; reply?: SaveReplyKind } = {},
) {
  const digest = saveDigest(videoId, fillGaps, input);
  const changed = await saveTransaction(db, async (tx) => {
    // Versions are read after the lock: a save that waited sees the one it waited for (save-lock.service.ts).
    await lockStructureForSave(tx, (await videoContext(tx, videoId)).structureId);
    const video = await videoContext(tx, videoId);
    if (input.client_save_id) {
      const seen = await tx
        .selectFrom('markup_saves')
        .select(['video_id', 'user_id', 'payload_hash'])
        .where('client_save_id', '=', input.client_save_id)
        .executeTakeFirst();
      if (seen) {
        if (seen.video_id !== videoId) throw badRequest('Ключ сохранения client_save_id уже использован для другого видео');
        if (seen.user_id !== null && seen.user_id !== user.id) throw badRequest(SAVE_ID_OTHER_USER_MESSAGE);
        if (seen.payload_hash !== null && seen.payload_hash !== digest) throw badRequest(SAVE_ID_REUSED_MESSAGE);
        return null;
      }
    }
    if (input.base_version !== video.version) {
      throw conflict(STALE_VERSION_MESSAGE, { current_version: video.version });
    }
    const changes: SaveChanges = { markups: new Set(), stamps: new Set(), deletedMarkups: new Set(), deletedStamps: new Set() };
    if (!fillGaps && isEmptySave(input)) return reply === 'changes' ? await changesReply(tx, video, video.version, changes) : null;
    await validate(tx, video, input);
    const now = Date.now();
    await writeRows(tx, user, video, input, now, changes);
    if (fillGaps) for (const id of await fillVideoGaps(tx, user, video, now)) changes.markups.add(id);
    // A person's rows (new, edited or accepted) push the model's unreviewed layer out of their time.
    const videoEnd = video.start + (video.duration ?? MAX_VIDEO_SECONDS) * 1000;
    const log: ModelLayerChanges = { deleted: [], inserted: [] };
    const clipped = await clipModelLayer(tx, video.structureId, video.start - MAX_SEGMENT_MS, videoEnd + MAX_SEGMENT_MS, undefined, log);
    for (const row of log.deleted.filter((r) => r.videoId === videoId)) {
      changes.markups.delete(row.id);
      changes.deletedMarkups.add(row.id);
    }
    for (const row of log.inserted.filter((r) => r.videoId === videoId)) changes.markups.add(row.id);
    clipped.delete(videoId);
    await bumpMarkupVersions(tx, [...clipped]);

    const version = video.version + 1;
    await recordMarkupSave(tx, videoId, version, user.id);
    await logActivities(tx, [{ videoId, authorId: user.id, at: now, comment: fillGaps ? 'Пропуски заполнены простоем' : 'Разметка сохранена' }]);
    if (input.client_save_id) {
      await tx
        .insertInto('markup_saves')
        .values({
          client_save_id: input.client_save_id,
          video_id: videoId,
          version,
          created_at: now,
          user_id: user.id,
          payload_hash: digest,
        })
        .execute();
    }
    return reply === 'changes' ? await changesReply(tx, video, version, changes) : null;
  });
  if (changed) return changed;
  const whole = await readVideoMarkups(db, videoId);
  return reply === 'changes' ? { ...whole, deleted_markup_ids: [], deleted_stamp_ids: [], base_version: whole.version, complete: true } : whole;
}

/** The reply of changes: the rows the save wrote (read inside its transaction) and the ids it removed. */
async function changesReply(tx: Db, video: VideoContext, version: number, changes: SaveChanges) {
  const rows = await videoRows(tx, video, { markups: [...changes.markups], stamps: [...changes.stamps] });
  return {
    ...rows,
    deleted_markup_ids: [...changes.deletedMarkups].sort((a, b) => a - b),
    deleted_stamp_ids: [...changes.deletedStamps].sort((a, b) => a - b),
    base_version: video.version,
    version,
    complete: false,
  };
}

/** The save's deletions, rows and stamps, in that order; every id written or removed goes to `changes`. */
async function writeRows(tx: Db, user: SessionUser, video: VideoContext, input: VideoMarkupsSaveInput, now: number, changes: SaveChanges) {
  const videoId = video.id;
  if (input.operation_markups_to_delete.length) {
    // A model segment deleted unreviewed is a rejection: remembered, so re-applying does not bring it back.
    await rememberRejections(tx, videoId, input.operation_markups_to_delete, user, now);
    await tx.deleteFrom('markups').where('video_id', '=', videoId).where('id', 'in', input.operation_markups_to_delete).execute();
    for (const id of input.operation_markups_to_delete) changes.deletedMarkups.add(id);
  }
  if (input.video_stamps_to_delete.length) {
    await tx.deleteFrom('video_stamps').where('video_id', '=', videoId).where('id', 'in', input.video_stamps_to_delete).execute();
    for (const id of input.video_stamps_to_delete) changes.deletedStamps.add(id);
  }
  for (const row of input.video_markups) {
    const values = {
      operation_id: row.operation_id,
      workplace_id: row.workplace_id,
      employee_id: row.employee_id ?? null,
      start_time: toInstant(video, row.start_time),
      end_time: toInstant(video, row.end_time),
      comment: row.comment ?? null,
      updated_at: now,
    };
    if (row.id !== undefined && row.id > 0) {
      // A model's segment a person has corrected is theirs from now on (reviewed, docs/vision.md).
      await tx
        .updateTable('markups')
        .set({
          ...values,
          source: sql<'manual' | 'fill_gaps' | 'model'>`CASE WHEN source = 'model' THEN 'manual' ELSE source END`,
          author_id: sql<string | null>`CASE WHEN source = 'model' THEN ${user.id} ELSE author_id END`,
        })
        .where('id', '=', row.id)
        .where('video_id', '=', videoId)
        .execute();
      changes.markups.add(row.id);
    } else {
      const inserted = await tx
        .insertInto('markups')
        .values({ ...values, structure_id: video.structureId, video_id: videoId, author_id: user.id, source: 'manual', created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      changes.markups.add(inserted.id);
    }
  }
  for (const stamp of input.video_stamps) {
    const values = { type: stamp.type, at: toInstant(video, stamp.time), comment: stamp.comment ?? '', employee_id: stamp.employee_id ?? null };
    if (stamp.id !== undefined && stamp.id > 0) {
      await tx.updateTable('video_stamps').set(values).where('id', '=', stamp.id).where('video_id', '=', videoId).execute();
      changes.stamps.add(stamp.id);
    } else {
      const inserted = await tx
        .insertInto('video_stamps')
        .values({ ...values, structure_id: video.structureId, video_id: videoId, author_id: user.id, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      changes.stamps.add(inserted.id);
    }
  }
}

/**
 * The structure's regulated break intervals (its shifts' breaks entered as intervals) over
 * [from, to): an unmarked break is the break, never idle (docs/markup.md). None for a partial
 * structure, whose reports do not count shifts.
 */
async function regulatedBreaks(db: Db, structureId: number, from: number, to: number): Promise<Interval[]> {
  const structure = await db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['structures.partial', 'organizations.time_zone'])
    .where('structures.id', '=', structureId)
    .executeTakeFirst();
  if (!structure || structure.partial === 1) return [];
  const shifts = await db
    .selectFrom('shifts')
    .select(['name', 'start_time', 'end_time', 'regular_break_duration_min', 'break_intervals'])
    .where('structure_id', '=', structureId)
    .execute();
  const rows = shifts.map(({ break_intervals, ...shift }) => ({ ...shift, breaks: parseBreakIntervals(break_intervals) }));
  return shiftBreakIntervals(rows, structure.time_zone, from, to);
}

/**
 * DESIGN.md "Fill gaps": each uncovered interval → the idle operation, workplace and employee of
 * its neighbour; the shifts' regulated break intervals stay unmarked (they are breaks, not idle).
 */
async function fillVideoGaps(db: Db, user: SessionUser, video: VideoContext, now: number): Promise<number[]> {
  if (video.duration === null) throw badRequest('Длительность видео ещё неизвестна: откройте видео, чтобы она записалась, и повторите');
  if (!(video.duration <= MAX_VIDEO_SECONDS))
    throw badRequest('Длительность видео в базе больше суток — её записали с ошибкой; исправьте её, прежде чем заполнять пропуски');
  const idle = await db
    .selectFrom('operations')
    .select('id')
    .where('structure_id', '=', video.structureId)
    .where('type', '=', 'idle')
    .orderBy('id')
    .executeTakeFirst();
  if (!idle) throw badRequest('В структурной единице нет операции простоя (тип «idle»): добавьте её в редакторе операций');
  const rows = await db
    .selectFrom('markups')
    .select(['start_time', 'end_time', 'workplace_id', 'employee_id'])
    .where('video_id', '=', video.id)
    .orderBy('start_time')
    .execute();
  const end = toInstant(video, video.duration);
  const gaps = partsOutside(
    findGaps(
      rows.map((r) => ({ start: r.start_time, end: boundedEnd(r.start_time, r.end_time) })),
      video.start,
      end,
    ),
    await regulatedBreaks(db, video.structureId, video.start, end),
  );
  if (gaps.length === 0) return [];
  let fallback: { workplace_id: number; employee_id: number | null } | undefined = rows[0];
  if (!fallback) {
    const workplaces = await db.selectFrom('workplaces').select('id').where('structure_id', '=', video.structureId).execute();
    if (workplaces.length !== 1) throw badRequest('Разметка пуста: добавьте хотя бы одну операцию, чтобы было ясно, чьё рабочее место заполнять');
    fallback = { workplace_id: workplaces[0]!.id, employee_id: null };
  }
  const values = gaps.map((gap) => {
    // The neighbour is the segment that ends where the gap starts, else the one after it.
    const before = [...rows].reverse().find((r) => r.end_time <= gap.start);
    const after = rows.find((r) => r.start_time >= gap.end);
    const neighbour = before ?? after ?? fallback!;
    return {
      structure_id: video.structureId,
      operation_id: idle.id,
      workplace_id: neighbour.workplace_id,
      employee_id: neighbour.employee_id,
      start_time: gap.start,
      end_time: gap.end,
      comment: null,
      video_id: video.id,
      author_id: user.id,
      source: 'fill_gaps' as const,
      created_at: now,
      updated_at: now,
    };
  });
  return (await db.insertInto('markups').values(values).returning('id').execute()).map((r) => r.id);
}

/** The video's markup as a TSV file (spec 01 "download work-time record as tsv"). */
export async function videoMarkupsTsv(db: Db, videoId: number, timeZone: string): Promise<{ filename: string; body: string }> {
  const video = await db.selectFrom('videos').select(['filename', 'start_time']).where('id', '=', videoId).executeTakeFirst();
  if (!video) throw notFound('Видео не найдено');
  const rows = await db
    .selectFrom('markups')
    .innerJoin('operations', 'operations.id', 'markups.operation_id')
    .innerJoin('operation_types', 'operation_types.code', 'operations.type')
    .innerJoin('workplaces', 'workplaces.id', 'markups.workplace_id')
    .leftJoin('employees', 'employees.id', 'markups.employee_id')
    .select([
      'markups.start_time',
      'markups.end_time',
      'markups.comment',
      'operations.name as operation',
      'operation_types.label as type',
      'workplaces.name as workplace',
      'employees.name as employee',
    ])
    .where('markups.video_id', '=', videoId)
    .where('markups.source', '!=', UNREVIEWED_SOURCE)
    .orderBy('markups.start_time')
    .execute();
  const header = ['№', 'Операция', 'Тип', 'Рабочее место', 'Сотрудник', 'Начало, с', 'Конец, с', 'Начало', 'Конец', 'Длительность, с', 'Комментарий'];
  const body = tsvText(
    header,
    rows.map((r, i) => [
      i + 1,
      r.operation,
      r.type,
      r.workplace,
      r.employee,
      ((r.start_time - video.start_time) / 1000).toFixed(3),
      ((boundedEnd(r.start_time, r.end_time) - video.start_time) / 1000).toFixed(3),
      formatLocalDateTime(r.start_time, timeZone),
      formatLocalDateTime(boundedEnd(r.start_time, r.end_time), timeZone),
      ((boundedEnd(r.start_time, r.end_time) - r.start_time) / 1000).toFixed(3),
      r.comment,
    ]),
  );
  return { filename: video.filename.replace(/\.[^.]+$/, '') + '.tsv', body };
}

/** Operations of the structure for the markup screen, with their type colours. */
export async function availableOperations(db: Db, structureId: number) {
  const operations = await db
    .selectFrom('operations')
    .innerJoin('operation_types', 'operation_types.code', 'operations.type')
    .select(['operations.id', 'operations.name', 'operations.type', 'operation_types.color'])
    .where('structure_id', '=', structureId)
    .orderBy('operations.name')
    .execute();
  const types = await db.selectFrom('operation_types').selectAll().orderBy('position').execute();
  const stampTypes = await db.selectFrom('video_stamp_types').select(['type', 'name']).execute();
  return {
    operations,
    video_stamp_types: stampTypes,
    operation_types: Object.fromEntries(types.map((t) => [t.code, { label: t.label, color: t.color }])),
  };
}
