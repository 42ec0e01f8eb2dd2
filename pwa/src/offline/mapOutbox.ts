import { get, update } from 'idb-keyval';
import { apiCallUrl, apiUrl } from '../api/paths';
import type { MapFeatureCollection, MapProject } from '../api/types';
import { API_CACHE } from './apiCache';
import { notifyChange, withOutboxLock } from './outbox';

/**
 * Drawing saves of the map editor made without a connection (docs/map.md, «Без сети»). A map save
 * replaces the whole drawing, so one item per user and project is enough: a later offline save
 * replaces the queued drawing but keeps its base — the project's version (`updated_at`) the first
 * offline change was made on, the last one the server acknowledged. The server takes it only on
 * that version (409 otherwise) and answers a resend of a save that already arrived with no change,
 * so a save whose answer was lost is applied once. Sent by the same rounds, under the same lock,
 * as the markup outbox (state/outboxSync.ts, the service worker's Background Sync). No DOM here.
 */
export interface MapOutboxItem {
  /** Login of the user who drew it: sent only in that user's session. */
  owner: string;
  projectId: number;
  /** The project's `updated_at` the drawing was made on. */
  baseUpdatedAt: number;
  drawn: MapFeatureCollection;
  queuedAt: number;
}

export type MapSendResult = 'sent' | 'conflict' | 'offline' | 'rejected';

export interface MapReplayOutcome {
  projectId: number;
  result: MapSendResult;
  /** The server's project after a sent save. */
  reply?: MapProject;
  message?: string;
}

/** A queued drawing the server did not take; kept so that nothing drawn is lost without a word. */
export interface MapOutboxProblem extends MapOutboxItem {
  message: string;
}

const ITEMS = 'norma:map-outbox';
const PROBLEMS = 'norma:map-outbox-problems';
const PROJECT_URL = apiUrl('/api/v1/projects/last/get');

const sameSlot = (a: { owner: string; projectId: number }, b: { owner: string; projectId: number }) => a.owner === b.owner && a.projectId === b.projectId;

export async function queuedMapSaves(): Promise<MapOutboxItem[]> {
  return (await get<MapOutboxItem[]>(ITEMS)) ?? [];
}

/** Queues `drawn` for the project; an older queued drawing of the same project is replaced, its base kept. */
export async function queueMapSave(item: Omit<MapOutboxItem, 'queuedAt'>) {
  await update<MapOutboxItem[]>(ITEMS, (items = []) => {
    const earlier = items.find((i) => sameSlot(i, item));
    return [...items.filter((i) => !sameSlot(i, item)), { ...item, baseUpdatedAt: earlier?.baseUpdatedAt ?? item.baseUpdatedAt, queuedAt: Date.now() }];
  });
  notifyChange();
}

/** The queued drawing of `owner` for the project, if any: an offline opening shows it over the cached project. */
export async function queuedDrawing(owner: string, projectId: number): Promise<MapOutboxItem | undefined> {
  return (await queuedMapSaves()).find((i) => sameSlot(i, { owner, projectId }));
}

async function drop(item: MapOutboxItem) {
  // Only this very item: a newer drawing queued meanwhile stays.
  await update<MapOutboxItem[]>(ITEMS, (items = []) => items.filter((i) => !(sameSlot(i, item) && i.queuedAt === item.queuedAt)));
  notifyChange();
}

/** A save made online carries the whole drawing: what `owner` queued for the project is not sent any more. */
export async function dropQueuedDrawing(owner: string, projectId: number) {
  await withOutboxLock(() => update<MapOutboxItem[]>(ITEMS, (items = []) => items.filter((i) => !sameSlot(i, { owner, projectId }))));
  notifyChange();
}

/** The cached current project becomes the saved one, so a later offline opening starts from it. */
export async function rememberProject(project: MapProject): Promise<void> {
  if (!('caches' in globalThis)) return;
  const cache = await caches.open(API_CACHE);
  await cache.put(new URL(PROJECT_URL, location.origin).href, new Response(JSON.stringify(project), { headers: { 'content-type': 'application/json' } }));
}

/** Sends one queued drawing as it was queued; plain fetch, so the service worker can run it too. */
export async function sendQueuedMapSave(item: MapOutboxItem): Promise<MapReplayOutcome> {
  const base = { projectId: item.projectId };
  let response: Response;
  try {
    response = await fetch(apiCallUrl('post', '/api/v1/projects/last/save'), {
      method: 'POST',
      credentials: 'same-origin',
      // The server refuses it if someone else has signed in meanwhile (api/src/markup/save-owner.ts).
      headers: { 'content-type': 'application/json', 'x-norma-save-owner': encodeURIComponent(item.owner) },
      body: JSON.stringify({ ...item.drawn, base: { project_id: item.projectId, updated_at: item.baseUpdatedAt } }),
    });
  } catch {
    return { ...base, result: 'offline' };
  }
  const body = (await response.json().catch(() => undefined)) as (MapProject & { error?: { message?: string; code?: string } }) | undefined;
  if (response.ok && body) {
    await rememberProject(body).catch(() => {});
    return { ...base, result: 'sent', reply: body };
  }
  const message = body?.error?.message ?? `Ошибка сервера (${response.status})`;
  if (response.status === 401 || response.status >= 500 || body?.error?.code === 'save_owner_mismatch') return { ...base, result: 'offline', message };
  return { ...base, result: response.status === 409 ? 'conflict' : 'rejected', message };
}

/**
 * Sends the drawings `owner` queued, under the outbox lock (never twice at once, from a tab or the
 * worker). A refused one leaves the queue and is kept as a problem; no network ends the round.
 */
export async function flushMapOutbox(owner: string, onOutcome?: (outcome: MapReplayOutcome) => void): Promise<MapReplayOutcome[]> {
  return withOutboxLock(async () => {
    const outcomes: MapReplayOutcome[] = [];
    for (const item of (await queuedMapSaves()).filter((i) => i.owner === owner)) {
      const outcome = await sendQueuedMapSave(item);
      outcomes.push(outcome);
      if (outcome.result === 'offline') break;
      await drop(item);
      if (outcome.result !== 'sent') {
        const problem: MapOutboxProblem = { ...item, message: outcome.message ?? '' };
        await update<MapOutboxProblem[]>(PROBLEMS, (list = []) => [...list.filter((p) => !sameSlot(p, item)), problem]);
      }
      onOutcome?.(outcome);
    }
    return outcomes;
  });
}
