import { proxy, subscribe } from 'valtio';
import { markOffline, markOnline, onBackOnline } from '../status/connectivity';
import { login } from './login';
import { notify, type Notice } from '../status/notifications';
import { OUTBOX_SYNC_TAG } from '../offline/apiCache';
import { queuedMapSaves, type MapReplayOutcome } from '../offline/mapOutbox';
import { onOutboxChange, outboxProblems, ownedBy, queuedSaves, type OutboxProblem, type ReplayOutcome } from '../offline/outbox';
import { replayOutbox } from '../offline/replay';

/**
 * App-wide sending of the outbox (offline/outbox.ts), whatever screen is open: on start, when the
 * network returns, every 30 s while online, and by Background Sync in the service worker where
 * the browser has it. The header's indicator reads `outboxStatus`. It lives in state/, beside the
 * signed-in user it follows (login.ts): offline/ keeps the queues and knows nothing of who is signed in.
 */
export const outboxStatus = proxy({
  /** Saves of the signed-in user waiting to be sent. */
  pending: 0,
  /** Saves queued here by other users (or, signed out, by anyone): they wait for their owner's sign-in. */
  othersPending: 0,
  /** Videos whose saves wait, oldest first (the indicator links to the first). */
  pendingVideos: [] as number[],
  /** Drawings of the map editor saved offline by the signed-in user (offline/mapOutbox.ts). */
  mapPending: 0,
  sending: false,
  problems: [] as OutboxProblem[],
});

export const PERIODIC_SYNC_MS = 30_000;

/** The open markup screen takes the outcome of its own video; true when it did. */
type ReplayListener = (outcome: ReplayOutcome) => boolean;
const replayListeners = new Set<ReplayListener>();
export function onSaveReplayed(listener: ReplayListener) {
  replayListeners.add(listener);
  return () => {
    replayListeners.delete(listener);
  };
}

/** The open map screen takes the outcome of its project; true when it did. */
type MapReplayListener = (outcome: MapReplayOutcome) => boolean;
const mapReplayListeners = new Set<MapReplayListener>();
export function onMapSaveReplayed(listener: MapReplayListener) {
  mapReplayListeners.add(listener);
  return () => {
    mapReplayListeners.delete(listener);
  };
}

/** Counts what waits, split by owner: the signed-in user is shown only their own saves and problems. */
async function refreshStatus() {
  const [items, problems, drawings] = await Promise.all([queuedSaves(), outboxProblems(), queuedMapSaves()]);
  const owner = login.loggedIn ? login.userLogin : null;
  const mine = owner === null ? [] : items.filter((i) => ownedBy(i, owner));
  outboxStatus.mapPending = drawings.filter((d) => d.owner === owner).length;
  outboxStatus.pending = mine.length;
  outboxStatus.othersPending = items.length - mine.length;
  outboxStatus.pendingVideos = mine.map((i) => i.videoId);
  outboxStatus.problems = owner === null ? [] : problems.filter((p) => ownedBy(p, owner));
  if (mine.length > 0 || outboxStatus.mapPending > 0) void requestBackgroundSync();
}

/** Lets the browser send the outbox when the network is back, even if every tab is closed. */
async function requestBackgroundSync() {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
    await registration.sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // Not granted or not supported: the page's own rounds still send it.
  }
}

/**
 * What a replayed save tells: no answer at all marks the connection lost (a 401 or 5xx with a
 * message is an answer, the banner would be wrong); an answer marks it back, and an open screen that
 * takes the outcome (a listener) shows it its own way; otherwise it is said in a message.
 */
function reportEach<T extends { result: string; message?: string }>(
  outcomes: T[],
  listeners: Iterable<(outcome: T) => boolean>,
  say: (outcome: T) => [Notice['kind'], string],
) {
  for (const outcome of outcomes) {
    if (outcome.result === 'offline') {
      if (outcome.message === undefined) markOffline();
      continue;
    }
    markOnline();
    let handled = false;
    for (const listener of listeners) handled = listener(outcome) || handled;
    if (!handled) notify(...say(outcome), { global: true });
  }
}

const report = (outcomes: ReplayOutcome[]) =>
  reportEach(outcomes, replayListeners, (outcome): [Notice['kind'], string] => {
    if (outcome.result === 'sent') return ['success', `Отложенное сохранение разметки видео № ${outcome.videoId} отправлено`];
    if (outcome.result === 'conflict')
      return [
        'error',
        `Отложенное сохранение видео № ${outcome.videoId} не принято: разметка изменилась на сервере. Откройте видео, чтобы решить, какую версию оставить.`,
      ];
    return ['error', `Отложенное сохранение видео № ${outcome.videoId} не принято: ${outcome.message ?? ''}. Откройте видео, чтобы исправить.`];
  });

const reportMap = (outcomes: MapReplayOutcome[]) =>
  reportEach(outcomes, mapReplayListeners, (outcome): [Notice['kind'], string] =>
    outcome.result === 'sent'
      ? ['success', 'Рисунок карты, сохранённый без сети, отправлен']
      : ['error', `Рисунок карты, сохранённый без сети, не принят: ${outcome.message ?? ''}. Откройте редактор карты.`],
  );

let round: Promise<void> | null = null;

async function sendRound() {
  try {
    // Only the signed-in user's saves can go (the replay asks the server who that is).
    const owner = login.loggedIn ? login.userLogin : null;
    if (owner === null) return;
    const [saves, drawings] = await Promise.all([queuedSaves(), queuedMapSaves()]);
    if (!saves.some((i) => ownedBy(i, owner)) && !drawings.some((d) => d.owner === owner)) return;
    outboxStatus.sending = true;
    await replayOutbox(
      (outcome) => report([outcome]),
      (outcome) => reportMap([outcome]),
    );
  } catch {
    // IndexedDB unavailable (nothing was queued either), or the server cannot be asked who is
    // signed in: the next round tries again.
  } finally {
    outboxStatus.sending = false;
    await refreshStatus().catch(() => {});
  }
}

/** One round of sending; rounds never overlap (and the lock keeps tabs and the worker apart). */
export function syncNow(): Promise<void> {
  // Cleared in a later microtask, always after the assignment (a round may end without waiting on anything).
  round ??= sendRound().finally(() => {
    round = null;
  });
  return round;
}

let started = false;

export function startOutboxSync() {
  if (started) return;
  started = true;
  onOutboxChange(() => void refreshStatus().catch(() => {}));
  // Someone signed in or out: the indicator shows the new user's saves, and theirs go out now.
  let owner = login.loggedIn ? login.userLogin : null;
  subscribe(login, () => {
    const now = login.loggedIn ? login.userLogin : null;
    if (now === owner) return;
    owner = now;
    void refreshStatus().catch(() => {});
    if (now !== null) void syncNow();
  });
  void syncNow();
  onBackOnline(() => void syncNow());
  window.addEventListener('online', () => void syncNow());
  // While the browser has a network (the server may be back before any call notices), try again now and then.
  setInterval(() => {
    if (navigator.onLine !== false) void syncNow();
  }, PERIODIC_SYNC_MS);
  // A round run by the service worker (Background Sync) is reported to the open tabs.
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; report?: ReplayOutcome[]; mapReport?: MapReplayOutcome[] } | undefined;
    if (data?.type !== 'norma-outbox-replayed') return;
    report((data.report ?? []).filter((o) => o.result !== 'offline'));
    reportMap((data.mapReport ?? []).filter((o) => o.result !== 'offline'));
    void refreshStatus().catch(() => {});
  });
}

/** Asks the browser not to evict what is kept for offline work (queued saves, drafts, videos). */
export async function askPersistentStorage(): Promise<boolean> {
  try {
    if (!navigator.storage?.persist) return false;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}
