import type { MarkupSession } from './session';
import { newKey, type MarkupRow } from '../../offline/markup-rows';

export interface Lane {
  workplace_id: number | null;
  employee_id: number | null;
}

/** Keys that code operations, in the order of the operation list: 1–9, 0, then the top letter row. */
export const OPERATION_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'];

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * An operation key at `time`: closes the segment being coded (if any) there and, unless it was
 * the same operation, opens the next one at the same instant — so a shift can be coded while it
 * plays. Closing and opening are one undo step.
 */
export function pressOperationKey(session: MarkupSession, operationId: number, time: number, lane: Lane): MarkupRow | null {
  const at = round(Math.max(0, time));
  const open = session.codingKey ? session.row(session.codingKey) : null;
  const changes = [];
  let laneToUse = lane;
  let startAt = at;
  if (open) {
    const end = Math.max(at, round(open.start + 0.1));
    changes.push({ key: open.key, before: open, after: { ...open, end } });
    laneToUse = { workplace_id: open.workplace_id, employee_id: open.employee_id };
    startAt = end;
    if (open.operation_id === operationId) {
      session.apply('Завершить операцию', changes);
      session.setCoding(null);
      return null;
    }
  }
  const row: MarkupRow = {
    key: newKey('k'),
    id: -1,
    operation_id: operationId,
    workplace_id: laneToUse.workplace_id,
    employee_id: laneToUse.employee_id,
    start: startAt,
    end: startAt,
    comment: '',
    source: 'manual',
  };
  changes.push({ key: row.key, before: null, after: row });
  // Before the change is applied (and told): parts of the screen that follow only the coded or
  // selected row (useSessionValue) see them in that one notification.
  session.codingKey = row.key;
  session.selectedKey = row.key;
  session.apply(open ? 'Следующая операция' : 'Начать операцию', changes);
  return row;
}

/** Ends the segment being coded at `time` (Enter), keeping at least 0.1 s. */
export function endCoding(session: MarkupSession, time: number) {
  const open = session.codingKey ? session.row(session.codingKey) : null;
  if (!open) return;
  session.apply('Завершить операцию', [{ key: open.key, before: open, after: { ...open, end: Math.max(round(time), round(open.start + 0.1)) } }]);
  session.setCoding(null);
}

/**
 * Uncovered intervals of [0, duration] (seconds): core-wasm's `findGaps`, the one the API fills gaps
 * with (api/src/markup/video-markups.service.ts). Loaded when first asked: a static import made the
 * markup screen wait for the WASM core's download and compile before its first render (issue 47,
 * cold open on a tablet CPU); the service worker keeps the chunk for offline use.
 */
export async function gaps(rows: readonly MarkupRow[], duration: number): Promise<[number, number][]> {
  const { findGaps } = await import('@norma/core-wasm');
  return findGaps(
    rows.map((r) => ({ start: r.start, end: r.end })),
    0,
    duration,
  )
    .map((gap): [number, number] => [gap.start, gap.end])
    .filter(([a, b]) => b - a > 1e-6);
}

/** Start of the next unmarked gap after `time`, or null when none is left. */
export async function nextGapStart(rows: readonly MarkupRow[], time: number, duration: number): Promise<number | null> {
  return (await gaps(rows, duration)).find(([start]) => start > time + 0.05)?.[0] ?? null;
}

export function previousSegment(rows: readonly MarkupRow[], time: number): MarkupRow | null {
  let found: MarkupRow | null = null;
  for (const row of rows) if (row.start < time - 0.05) found = row;
  return found;
}

export function nextSegment(rows: readonly MarkupRow[], time: number): MarkupRow | null {
  return rows.find((row) => row.start > time + 0.05) ?? null;
}
