import type { PeriodMarkupRow, PeriodMarkupsSave } from '../../api/types';
import { formatPickerSeconds, parsePickerSeconds } from '../projects/period';

/** A markup row as GET /api/v1/operation_markups answers it. */
export type ServerRow = PeriodMarkupRow;

/** A row of the period editor: the chosen ids (0 — none yet) and the typed date-times. */
export interface EditRow {
  key: string;
  id?: number;
  operationId: number;
  workplaceId: number;
  employeeId: number;
  startText: string;
  endText: string;
  comment: string;
  videoId: number | null;
  dirty: boolean;
}

export const SAVED = 'Успешно сохранено!';
export const INCORRECT = 'Данные введены некорректно';

let nextKey = 1;
const key = () => `row-${nextKey++}`;

/**
 * Saved rows, newest first (spec 01 "Operation markup editing"). Rows already on screen keep
 * their keys, so a save redraws only what changed.
 */
export function rowsFromServer(rows: ServerRow[], timeZone: string, previous: EditRow[] = []): EditRow[] {
  const keys = new Map(previous.filter((r) => r.id !== undefined).map((r) => [r.id!, r.key]));
  return [...rows]
    .sort((a, b) => Date.parse(b.start_time) - Date.parse(a.start_time) || b.id - a.id)
    .map((r) => ({
      key: keys.get(r.id) ?? key(),
      id: r.id,
      operationId: r.operation_id,
      workplaceId: r.workplace_id,
      employeeId: r.employee_id ?? 0,
      startText: formatPickerSeconds(Date.parse(r.start_time), timeZone),
      endText: formatPickerSeconds(Date.parse(r.end_time), timeZone),
      comment: r.comment ?? '',
      videoId: r.video_id,
      dirty: false,
    }));
}

/**
 * Where a new row starts: now when now is inside the edited period; otherwise the period's start,
 * so that a row added to a past (or future) period lies in that period, not today (issue 28).
 */
export function newRowInstant(now: number, from: number, to: number): number {
  return now >= from && now <= to ? now : from;
}

/**
 * A new row (spec 01 §4): start and end equal to now, operation, comment, employee and workplace
 * empty — workplace or employee prefilled when only one exists.
 */
export function newRow(now: number, workplaces: { id: number }[], employees: { id: number }[], timeZone: string): EditRow {
  const at = formatPickerSeconds(now, timeZone);
  return {
    key: key(),
    operationId: 0,
    workplaceId: workplaces.length === 1 ? workplaces[0]!.id : 0,
    employeeId: employees.length === 1 ? employees[0]!.id : 0,
    startText: at,
    endText: at,
    comment: '',
    videoId: null,
    dirty: true,
  };
}

/** What is wrong with a row, or null. */
export function rowProblem(row: EditRow, timeZone: string): string | null {
  if (!row.operationId) return 'не выбрана операция';
  if (!row.workplaceId) return 'не выбрано рабочее место';
  const start = parsePickerSeconds(row.startText, timeZone);
  const end = parsePickerSeconds(row.endText, timeZone);
  if (start === null) return 'начало: введите дату и время как дд-мм-гггг чч:мм:сс';
  if (end === null) return 'конец: введите дату и время как дд-мм-гггг чч:мм:сс';
  if (!(start < end)) return 'начало должно быть раньше конца';
  return null;
}

/** The save body: changed and new rows, the ids removed and the window's version they are based on (the server requires it). */
export function savePayload(rows: EditRow[], toDelete: number[], timeZone: string, baseVersion: string): PeriodMarkupsSave {
  return {
    operation_markups: rows
      .filter((r) => r.dirty)
      .map((r) => ({
        ...(r.id === undefined ? {} : { id: r.id }),
        operation_id: r.operationId,
        workplace_id: r.workplaceId,
        employee_id: r.employeeId || null,
        start_time: new Date(parsePickerSeconds(r.startText, timeZone)!).toISOString(),
        end_time: new Date(parsePickerSeconds(r.endText, timeZone)!).toISOString(),
        comment: r.comment.trim() ? r.comment : null,
      })),
    operation_markups_to_delete: toDelete,
    base_version: baseVersion,
  };
}

/** Operations for the dropdown, sorted alphabetically (spec 01). */
export function sortedByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.name.localeCompare(b.name, 'ru'));
}
