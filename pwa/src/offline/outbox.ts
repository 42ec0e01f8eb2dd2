import { get, set, update } from 'idb-keyval';
import type { SavePayload, VideoMarkupsReply } from './markup-rows';

/**
 * Saves made without a connection wait here (IndexedDB) and are sent when it returns, from any
 * screen, by the page or by the service worker (Background Sync). One item per video: a newer
 * payload is always a diff against the last acknowledged server version, so it supersedes an
 * older one. An item is resent exactly as it was queued (same payload, base_version and
 * client_save_id), so a resend whose first attempt did reach the server is applied once.
 *
 * Each item belongs to the user who queued it (`owner`, the login) and is sent only in that
 * user's session: on a shared tablet the next person's session never carries it (docs/markup.md,
 * «Чьё сохранение»). One item per video and owner.
 */
export interface OutboxItem {
  videoId: number;
  payload: SavePayload;
  queuedAt: number;
  /** Login of the user who queued it; absent only on items queued by an older version of the app. */
  owner?: string;
}

/** A queued save the server did not take: the markup screen of that video shows what to do. */
export interface OutboxProblem {
  videoId: number;
  /** Whose queued save it was: only that user is shown the problem. */
  owner?: string;
  kind: 'conflict' | 'rejected';
  message: string;
  at: number;
}

export type SendResult = 'sent' | 'conflict' | 'offline' | 'rejected';

export interface ReplayOutcome {
  videoId: number;
  clientSaveId: string;
  result: SendResult;
  /** The server's markup after a sent save. */
  reply?: VideoMarkupsReply;
  message?: string;
}

const ITEMS = 'norma:outbox';
const PROBLEMS = 'norma:outbox-problems';

export async function queuedSaves(): Promise<OutboxItem[]> {
  return (await get<OutboxItem[]>(ITEMS)) ?? [];
}

export async function outboxProblems(): Promise<OutboxProblem[]> {
  return (await get<OutboxProblem[]>(PROBLEMS)) ?? [];
}

/** Whether a stored item (or problem) is `owner`'s; one from before owners were recorded goes with whoever signs in. */
export const ownedBy = (entry: { owner?: string }, owner: string) => entry.owner === undefined || entry.owner === owner;

const sameSlot = (a: { videoId: number; owner?: string }, b: { videoId: number; owner?: string }) => a.videoId === b.videoId && a.owner === b.owner;

export async function enqueueSave(item: OutboxItem) {
  await update<OutboxItem[]>(ITEMS, (items = []) => [...items.filter((i) => !sameSlot(i, item)), item]);
  notifyChange();
}

/** Removes one queued save (sent, or given up after a refusal). */
export async function dropQueued(videoId: number, clientSaveId: string) {
  await update<OutboxItem[]>(ITEMS, (items = []) => items.filter((i) => !(i.videoId === videoId && i.payload.client_save_id === clientSaveId)));
  notifyChange();
}

/** A save made online from the markup screen carries every change its user queued for that video too. */
export async function dropQueuedFor(videoId: number, owner: string) {
  await update<OutboxItem[]>(ITEMS, (items = []) => items.filter((i) => !(i.videoId === videoId && ownedBy(i, owner))));
  notifyChange();
}

export async function recordProblem(problem: OutboxProblem) {
  await update<OutboxProblem[]>(PROBLEMS, (list = []) => [...list.filter((p) => !sameSlot(p, problem)), problem]);
  notifyChange();
}

/** The markup screen resolved (or saved over) what went wrong with its user's queued save of this video. */
export async function clearProblem(videoId: number, owner: string) {
  const mine = (p: OutboxProblem) => p.videoId === videoId && ownedBy(p, owner);
  const list = await outboxProblems();
  if (!list.some(mine)) return;
  await set(
    PROBLEMS,
    list.filter((p) => !mine(p)),
  );
  notifyChange();
}

const listeners = new Set<() => void>();
export function onOutboxChange(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
export function notifyChange() {
  for (const listener of listeners) listener();
}

let localTail: Promise<unknown> = Promise.resolve();

/**
 * Runs `task` alone across every tab and the service worker (Web Locks), so a queued save is never
 * in flight twice and the markup screen's own save never races a replay of the same video.
 */
export function withOutboxLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks) return locks.request('norma-outbox', task) as Promise<T>;
  const run = localTail.then(task, task);
  localTail = run.catch(() => undefined);
  return run;
}

/**
 * Sends every save `owner` queued, in order, under the lock; `onOutcome` hears each one there.
 * Saves of other users are not touched: they wait for their owner's session. A save that conflicts
 * or is refused leaves the queue (its draft stays on the device, the problem is recorded for the
 * indicator and the markup screen); a network failure stops the round until the next one.
 */
export async function flushOutbox(
  send: (item: OutboxItem) => Promise<ReplayOutcome>,
  owner: string,
  onOutcome?: (outcome: ReplayOutcome) => void,
): Promise<ReplayOutcome[]> {
  return withOutboxLock(async () => {
    const outcomes: ReplayOutcome[] = [];
    for (const item of (await queuedSaves()).filter((i) => ownedBy(i, owner))) {
      const outcome = await send(item);
      outcomes.push(outcome);
      if (outcome.result !== 'offline') {
        await dropQueued(item.videoId, item.payload.client_save_id);
        if (outcome.result === 'sent') await clearProblem(item.videoId, owner);
        else
          await recordProblem({
            videoId: item.videoId,
            owner: item.owner,
            kind: outcome.result === 'conflict' ? 'conflict' : 'rejected',
            message: outcome.message ?? '',
            at: Date.now(),
          });
      }
      // Still under the lock: an open markup screen moves to the new version before its own next save.
      onOutcome?.(outcome);
      if (outcome.result === 'offline') break;
    }
    return outcomes;
  });
}
