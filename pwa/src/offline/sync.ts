import { proxy } from 'valtio';
import { markOffline, markOnline, onBackOnline } from '../state/connectivity';
import { notify } from '../state/notifications';
import { OUTBOX_SYNC_TAG } from './apiCache';
import { onOutboxChange, outboxProblems, queuedSaves, type OutboxProblem, type ReplayOutcome } from './outbox';
import { replayOutbox } from './replay';

/**
 * App-wide sending of the outbox (offline/outbox.ts), whatever screen is open: on start, when the
 * network returns, every 30 s while online, and by Background Sync in the service worker where
 * the browser has it. The header's indicator reads `outboxStatus`.
 */
export const outboxStatus = proxy({
  pending: 0,
  /** Videos whose saves wait, oldest first (the indicator links to the first). */
  pendingVideos: [] as number[],
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

async function refreshStatus() {
  const [items, problems] = await Promise.all([queuedSaves(), outboxProblems()]);
  outboxStatus.pending = items.length;
  outboxStatus.pendingVideos = items.map((i) => i.videoId);
  outboxStatus.problems = problems;
  if (items.length > 0) void requestBackgroundSync();
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

function report(outcomes: ReplayOutcome[]) {
  for (const outcome of outcomes) {
    if (outcome.result === 'offline') {
      // No answer at all; a 401 or 5xx (with a message) is an answer, the banner would be wrong.
      if (outcome.message === undefined) markOffline();
      continue;
    }
    markOnline();
    let handled = false;
    for (const listener of replayListeners) handled = listener(outcome) || handled;
    if (handled) continue;
    if (outcome.result === 'sent') notify('success', `Отложенное сохранение разметки видео № ${outcome.videoId} отправлено`);
    else if (outcome.result === 'conflict')
      notify(
        'error',
        `Отложенное сохранение видео № ${outcome.videoId} не принято: разметка изменилась на сервере. Откройте видео, чтобы решить, какую версию оставить.`,
      );
    else notify('error', `Отложенное сохранение видео № ${outcome.videoId} не принято: ${outcome.message ?? ''}. Откройте видео, чтобы исправить.`);
  }
}

let round: Promise<void> | null = null;

/** One round of sending; rounds never overlap (and the lock keeps tabs and the worker apart). */
export function syncNow(): Promise<void> {
  round ??= (async () => {
    try {
      if ((await queuedSaves()).length === 0) return;
      outboxStatus.sending = true;
      await replayOutbox((outcome) => report([outcome]));
    } catch {
      // IndexedDB unavailable: nothing was queued either.
    } finally {
      outboxStatus.sending = false;
      round = null;
      await refreshStatus().catch(() => {});
    }
  })();
  return round;
}

let started = false;

export function startOutboxSync() {
  if (started) return;
  started = true;
  onOutboxChange(() => void refreshStatus().catch(() => {}));
  void syncNow();
  onBackOnline(() => void syncNow());
  window.addEventListener('online', () => void syncNow());
  // While the browser has a network (the server may be back before any call notices), try again now and then.
  setInterval(() => {
    if (navigator.onLine !== false) void syncNow();
  }, PERIODIC_SYNC_MS);
  // A round run by the service worker (Background Sync) is reported to the open tabs.
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; report?: ReplayOutcome[] } | undefined;
    if (data?.type !== 'norma-outbox-replayed') return;
    report((data.report ?? []).filter((o) => o.result !== 'offline'));
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
