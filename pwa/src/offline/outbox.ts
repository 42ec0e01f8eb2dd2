import { get, set } from 'idb-keyval';
import type { SavePayload } from '../screens/video-markup/model';

/**
 * Saves made without a connection wait here (IndexedDB) and are sent when it returns. One item per
 * video: a newer payload is always a diff against the last acknowledged server version, so it
 * supersedes an older one. Each carries a client_save_id, so a resend is applied once.
 */
export interface OutboxItem {
  videoId: number;
  payload: SavePayload;
  queuedAt: number;
}

const KEY = 'norma:outbox';

export async function queuedSaves(): Promise<OutboxItem[]> {
  return (await get<OutboxItem[]>(KEY)) ?? [];
}

export async function enqueueSave(item: OutboxItem) {
  const items = (await queuedSaves()).filter((i) => i.videoId !== item.videoId);
  await set(KEY, [...items, item]);
  notifyChange();
}

export async function dropQueued(videoId: number, clientSaveId: string) {
  const items = (await queuedSaves()).filter((i) => !(i.videoId === videoId && i.payload.client_save_id === clientSaveId));
  await set(KEY, items);
  notifyChange();
}

export type SendResult = 'sent' | 'conflict' | 'offline' | 'rejected';

const listeners = new Set<() => void>();
export function onOutboxChange(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function notifyChange() {
  for (const listener of listeners) listener();
}

let flushing = false;

/**
 * Sends every queued save in order. A save that conflicts or is refused leaves the queue (its draft
 * stays on the device and the markup screen shows the conflict); a network failure stops the
 * flush until the next `online` event.
 */
export async function flushOutbox(send: (item: OutboxItem) => Promise<SendResult>): Promise<Record<number, SendResult>> {
  const results: Record<number, SendResult> = {};
  if (flushing) return results;
  flushing = true;
  try {
    for (const item of await queuedSaves()) {
      const result = await send(item);
      results[item.videoId] = result;
      if (result === 'offline') break;
      await dropQueued(item.videoId, item.payload.client_save_id);
    }
  } finally {
    flushing = false;
  }
  return results;
}
