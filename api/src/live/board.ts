import { CATEGORIES, type Category, type Segment } from '@norma/core-wasm';
import { fulfilmentPercent } from '@norma/core-wasm/norms';
import { engineSettings, localDate, runDayBalance, shiftInstances, shiftsWorked, zonedInstant, type StructureContext } from '@norma/core-wasm/report';
import type { z } from '@hono/zod-openapi';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import { approvedNormRows } from '../norms/service';
import { loadStructureContext, productStampTimes } from '../report/service';
import type { LiveBoard } from './board.schema';
import { boardMarkups, boardWorkplaces, type BoardMarkup } from './board.service';
import { cameraHealth } from './health';

/**
 * The live board «Смена сейчас» of a structure (issue 45, docs/live-cameras.md «Доска»): for each
 * workplace the current operation, the shift so far and the cameras. The figures are the report's:
 * the same day balance of the report core (`runDayBalance` over `engineSettings`, METHODOLOGY §2) on
 * the window from the start of the shift running now to now, and the norm fulfilment formula of
 * the norms (`fulfilmentPercent`) on that part of the shift. Nothing is re-derived here.
 */

export type LiveBoardReply = z.infer<typeof LiveBoard>;
/** What the board reads: the database, and the store (its disk's free space is a camera alert). */
export type BoardDeps = Pick<AppDeps, 'db' | 'storage'>;

/** The window «смена до сих пор»: from the start of the shift running at `now` (or local midnight outside shifts) to now. */
export function boardWindow(context: StructureContext, now: number): { from: number; shiftName: string | null } {
  const running = shiftInstances(context, now - 1, now + 1).find((s) => s.start <= now && now < s.end);
  if (running) return { from: running.start, shiftName: running.name };
  return { from: zonedInstant(localDate(now, context.timeZone), '00:00:00', context.timeZone), shiftName: null };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/**
 * The labels that count for a workplace's figures: the reviewed ones (as in the report), and the
 * model layer's rows where no reviewed label lies (a live camera's labels are not reviewed yet —
 * the board says how much of its time comes from them).
 */
function countedLabels(labels: BoardMarkup[]): { segments: Segment[]; modelSeconds: number } {
  const reviewed = labels.filter((l) => l.source !== 'model');
  const model = labels.filter((l) => l.source === 'model' && !reviewed.some((r) => overlaps(r, l)));
  const toSegment = (l: BoardMarkup): Segment => ({
    id: l.id,
    start: l.start,
    end: l.end,
    category: (CATEGORIES as readonly string[]).includes(l.operationType) ? (l.operationType as Category) : 'idle',
    operationId: l.operationId,
    operationName: l.operationName,
    employeeId: l.employeeId ?? 0,
  });
  const segments = [...reviewed, ...model].sort((a, b) => a.start - b.start || a.id - b.id).map(toSegment);
  return { segments, modelSeconds: model.reduce((sum, l) => sum + Math.max(0, l.end - l.start), 0) / 1000 };
}

/** The current operation: the latest label by start; on an equal start the model layer's (it is the live one). */
function currentOf(labels: BoardMarkup[]): LiveBoardReply['workplaces'][number]['current'] {
  let latest: BoardMarkup | null = null;
  for (const l of labels) {
    if (!latest || l.start > latest.start || (l.start === latest.start && l.source === 'model' && latest.source !== 'model')) latest = l;
  }
  if (!latest) return null;
  return {
    operation_id: latest.operationId,
    operation_name: latest.operationName,
    operation_type: latest.operationType,
    since: latest.start,
    until: latest.end,
    source: latest.source === 'model' ? 'model' : 'human',
    employee_name: latest.employeeName,
  };
}

/** Нвр (minutes per unit) of the approved norm in force on a local date, or null. */
async function normTimeOn(db: Db, structureId: number, date: string): Promise<number | null> {
  const rows = await approvedNormRows(db, structureId);
  const inForce = rows
    .filter((r) => r.effective_from !== null && r.effective_from <= date)
    .sort((a, b) => (a.effective_from! < b.effective_from! ? 1 : a.effective_from! > b.effective_from! ? -1 : b.version - a.version))[0];
  if (!inForce) return null;
  const card = JSON.parse(inForce.card) as { figures?: { key: string; value: number | null }[] };
  return card.figures?.find((f) => f.key === 'norm_time')?.value ?? null;
}

/** The shift so far of one workplace's labels: the report core's day balance of [from, now), and the norm fulfilment so far. */
function shiftOf(context: StructureContext, labels: BoardMarkup[], from: number, now: number, normTime: number | null, stamps: { employeeId: number }[]) {
  const { segments, modelSeconds } = countedLabels(labels);
  const to = Math.max(now, from + 1);
  const worked = shiftsWorked(shiftInstances(context, from, to), segments);
  const balance = runDayBalance(segments, engineSettings(context, from, to, worked));
  const seconds = (c: Category) => balance.categories[CATEGORIES.indexOf(c)]?.seconds ?? 0;
  const employees = new Set(segments.map((s) => s.employeeId).filter((id) => id !== 0));
  const units = stamps.filter((s) => employees.has(s.employeeId)).length;
  const fulfilment =
    normTime !== null && units > 0 && segments.length > 0 ? fulfilmentPercent(normTime, units, balance.shiftSeconds / 60, seconds('idle') / 60) : null;
  return {
    observed_seconds: balance.observedSeconds,
    work_seconds: balance.workSeconds,
    loss_seconds: balance.losses.seconds,
    rest_seconds: seconds('rest'),
    load_percent: segments.length > 0 ? balance.load.percentage : 0,
    norm_fulfilment_percent: fulfilment,
    model_seconds: modelSeconds,
  };
}

/** The figures of the board (everything but the cameras' health), computed when the labels change. */
export async function boardFigures(db: Db, structureId: number, now = Date.now()) {
  const context = await loadStructureContext(db, structureId);
  const { from, shiftName } = boardWindow(context, now);
  const [labels, workplaces, normTime, stamps] = await Promise.all([
    boardMarkups(db, structureId, from, now + 60_000),
    boardWorkplaces(db, structureId),
    normTimeOn(db, structureId, localDate(from, context.timeZone)),
    productStampTimes(db, structureId, from, now),
  ]);
  const byWorkplace = new Map<number, BoardMarkup[]>();
  for (const l of labels) byWorkplace.set(l.workplaceId, [...(byWorkplace.get(l.workplaceId) ?? []), l]);
  return {
    structure_id: structureId,
    structure_name: context.name,
    time_zone: context.timeZone,
    shift_name: shiftName,
    from_time: from,
    now,
    workplaces: workplaces.map((w) => {
      const own = byWorkplace.get(w.id) ?? [];
      return {
        workplace_id: w.id,
        name: w.name,
        current: currentOf(own),
        shift: shiftOf(context, own, from, now, normTime, stamps),
        camera_ids: [...new Set(own.map((l) => l.cameraId).filter((id): id is number => id !== null))].sort((a, b) => a - b),
      };
    }),
  };
}

/**
 * The health of the structure's stream cameras and their alerts (health.ts `cameraHealth`: offline
 * longer than the camera's limit, a recorder behind, the store's disk nearly full) and the stream's
 * frame rate the recorder measured.
 */
export async function boardCameras(deps: BoardDeps, structureId: number, now = Date.now()): Promise<Pick<LiveBoardReply, 'cameras' | 'alerts'>> {
  const health = await cameraHealth(deps, structureId, { now });
  return {
    cameras: health.cameras.map((c) => ({
      camera_id: c.camera_id,
      name: c.camera_name,
      state: c.state,
      last_frame_at: c.last_frame_at,
      frame_rate: c.frame_rate,
    })),
    alerts: health.alerts.map((a) => a.message),
  };
}

/** The whole board at `now`. */
export async function liveBoard(deps: BoardDeps, structureId: number, readOnly: boolean, now = Date.now()): Promise<LiveBoardReply> {
  const [figures, health] = await Promise.all([boardFigures(deps.db, structureId, now), boardCameras(deps, structureId, now)]);
  return { ...figures, ...health, read_only: readOnly };
}
