import type { Db } from '../db/database';
import { contentDisposition } from '../http/content-disposition';
import { ApiError, badRequest } from '../http/errors';
import { boundedEnd, isCalendarDateInRange } from '../http/time';
import { tsvText } from '../http/tsv';
import { formatLocalDateTime, localDayBounds } from '../time-zone';
import { UNREVIEWED_SOURCE } from './model-layer.service';

/** The exact text of spec 01 §5 when the date or the camera is missing. */
export const DUMP_NEEDS_DATE_AND_CAMERA = 'Нужно выбрать дату и камеру';

export const DUMP_COLUMNS = ['Видео', 'Операция', 'Тип операции', 'Рабочее место', 'Сотрудник', 'Начало', 'Конец', 'Длительность, с', 'Комментарий'] as const;

export interface DumpRequest {
  cameraKey?: string;
  date?: string;
  format?: string;
}

/** Checks the dump parameters: date and camera are required (the spec's text), then their form. */
export function checkDumpRequest(input: DumpRequest): { cameraKey: number; date: string } {
  const cameraKey = input.cameraKey?.trim() ?? '';
  const date = input.date?.trim() ?? '';
  if (!cameraKey || !date) throw new ApiError(400, 'bad_request', DUMP_NEEDS_DATE_AND_CAMERA);
  if (!/^[1-4]$/.test(cameraKey)) throw badRequest('camera_key: ожидается 1, 2, 3 или 4');
  if (!isCalendarDateInRange(date)) throw badRequest('date: ожидается существующая дата в виде год-месяц-день между 2000 и 2100 годами, например 2026-11-16');
  if (input.format !== undefined && input.format !== 'tsv') throw badRequest('format: поддерживается только tsv');
  return { cameraKey: Number(cameraKey), date };
}

/** Seconds with at most three decimals, without trailing zeros ("37", "12.5"). */
export const seconds = (ms: number) => String(Math.round(ms) / 1000);

/**
 * The work-time record of one camera on one local date: every markup of that camera's videos that
 * starts on the date (organisation's time zone), in time order, as TSV with a header row.
 */
export async function workTimeRecord(db: Db, structureId: number, cameraKey: number, date: string) {
  const structure = await db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['structures.name', 'organizations.time_zone'])
    .where('structures.id', '=', structureId)
    .executeTakeFirstOrThrow();
  const [from, to] = localDayBounds(date, structure.time_zone);
  const rows = await db
    .selectFrom('markups')
    .innerJoin('videos', 'videos.id', 'markups.video_id')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('operations', 'operations.id', 'markups.operation_id')
    .innerJoin('operation_types', 'operation_types.code', 'operations.type')
    .innerJoin('workplaces', 'workplaces.id', 'markups.workplace_id')
    .leftJoin('employees', 'employees.id', 'markups.employee_id')
    .select([
      'videos.filename',
      'operations.name as operation',
      'operation_types.label as type_label',
      'workplaces.name as workplace',
      'employees.name as employee',
      'markups.start_time',
      'markups.end_time',
      'markups.comment',
    ])
    .where('cameras.structure_id', '=', structureId)
    .where('cameras.camera_key', '=', cameraKey)
    .where('markups.source', '!=', UNREVIEWED_SOURCE)
    .where('markups.start_time', '>=', from)
    .where('markups.start_time', '<', to)
    .orderBy('markups.start_time')
    .orderBy('markups.id')
    .execute();
  const text = tsvText(
    DUMP_COLUMNS,
    rows.map((row) => [
      row.filename,
      row.operation,
      row.type_label,
      row.workplace,
      row.employee,
      formatLocalDateTime(row.start_time, structure.time_zone),
      formatLocalDateTime(boundedEnd(row.start_time, row.end_time), structure.time_zone),
      seconds(boundedEnd(row.start_time, row.end_time) - row.start_time),
      row.comment,
    ]),
  );
  return { text, structureName: structure.name, rows: rows.length };
}

/** The record's file name in full (Cyrillic), with a plain ASCII one for clients that read only `filename`. */
export function dumpDisposition(structureName: string, cameraKey: number, date: string): string {
  const full = `Учёт времени — ${structureName} — камера ${cameraKey} — ${date}.tsv`;
  return contentDisposition(full, { asciiName: `worktime-camera${cameraKey}-${date}.tsv` });
}
