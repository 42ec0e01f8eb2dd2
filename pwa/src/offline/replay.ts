import { rowsFromReply, sameRow, sameStamp, type MarkupRow, type StampRow, type VideoMarkupsReply } from './markup-rows';
import type { FailureBody } from '../api/client';
import { apiCallUrl, apiUrl } from '../api/paths';
import { rememberMarkups } from './apiCache';
import { loadDraft, saveDraft } from './drafts';
import { flushMapOutbox, type MapReplayOutcome } from './mapOutbox';
import { flushOutbox, type OutboxItem, type ReplayOutcome } from './outbox';
import { settlePendingSignOut } from './signOut';

/**
 * Local markup (a draft, or the open screen's rows) carried over to the server's version after its
 * queued save was accepted: rows that save created take their server ids, so only edits made after
 * the save still differ from the server. A new server row is matched by content, one for one,
 * among rows the local side does not know; nothing already sent is ever sent again.
 */
export function carryOverAfterSave(local: { rows: readonly MarkupRow[]; stamps: readonly StampRow[] }, reply: VideoMarkupsReply) {
  const server = rowsFromReply(reply);
  const knownRows = new Set(local.rows.filter((r) => r.id > 0).map((r) => r.id));
  // Newest first: a draft of changes (drafts.ts) knows only the rows it changed, so the rows this save
  // created are looked at before older ones that happen to read the same.
  const freshRows = server.rows.filter((r) => !knownRows.has(r.id)).sort((a, b) => b.id - a.id);
  const rows = local.rows.map((row) => {
    if (row.id > 0) return row;
    const index = freshRows.findIndex((s) => sameRow(s, row));
    if (index < 0) return row;
    return freshRows.splice(index, 1)[0]!;
  });
  const knownStamps = new Set(local.stamps.filter((s) => s.id > 0).map((s) => s.id));
  const freshStamps = server.stamps.filter((s) => !knownStamps.has(s.id)).sort((a, b) => b.id - a.id);
  const stamps = local.stamps.map((stamp) => {
    if (stamp.id > 0) return stamp;
    const index = freshStamps.findIndex((s) => sameStamp(s, stamp));
    if (index < 0) return stamp;
    return freshStamps.splice(index, 1)[0]!;
  });
  return { version: reply.version, rows, stamps };
}

/** Sends one queued save of `owner` as it was queued; plain fetch, so the service worker can run it too. */
export async function sendQueuedSave(item: OutboxItem, owner: string): Promise<ReplayOutcome> {
  const base = { videoId: item.videoId, clientSaveId: item.payload.client_save_id };
  let response: Response;
  try {
    response = await fetch(apiCallUrl('put', '/api/v1/video_markups/{videoId}', { path: { videoId: item.videoId } }), {
      method: 'PUT',
      credentials: 'same-origin',
      // The server refuses it if someone else has signed in meanwhile (api/src/markup/save-owner.ts).
      headers: { 'content-type': 'application/json', 'x-norma-save-owner': encodeURIComponent(owner) },
      body: JSON.stringify(item.payload),
    });
  } catch {
    return { ...base, result: 'offline' };
  }
  const body = (await response.json().catch(() => undefined)) as (VideoMarkupsReply & NonNullable<FailureBody>) | undefined;
  if (response.ok && body) {
    // The stored draft of that video moves to the new version, keeping only later edits.
    const draft = await loadDraft(item.videoId, owner).catch(() => undefined);
    if (draft && draft.version === item.payload.base_version) {
      await saveDraft({ ...draft, ...carryOverAfterSave(draft, body), savedAt: Date.now(), owner });
    }
    await rememberMarkups(item.videoId, body).catch(() => {});
    return { ...base, result: 'sent', reply: body };
  }
  const message = body?.error?.message ?? `Ошибка сервера (${response.status})`;
  // Signed out meanwhile, someone else signed in, or the server is down: the save waits for a later round, never dropped.
  if (response.status === 401 || response.status >= 500 || body?.error?.code === 'save_owner_mismatch') return { ...base, result: 'offline', message };
  return { ...base, result: response.status === 409 ? 'conflict' : 'rejected', message };
}

/** The server could not be asked who is signed in (no network, or a sign-out still waits for it). */
export class ReplayUnreachable extends Error {}

/** The login of the session the browser's cookie stands for now, null when nobody is signed in. */
async function sessionOwner(): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/api/v1/whoami'), { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ReplayUnreachable('offline');
  }
  if (!response.ok) throw new ReplayUnreachable(`whoami ${response.status}`);
  const body = (await response.json().catch(() => null)) as { login?: unknown } | null;
  return typeof body?.login === 'string' ? body.login : null;
}

/**
 * One round of the outbox, in a page or in the service worker: a pending sign-out reaches the
 * server first, then only the saves of the user signed in now are sent (asked of the server, not
 * taken from the device's memory, so a save never goes out under someone else's cookie). Throws
 * ReplayUnreachable when the server cannot be asked. The map editor's queued drawings follow;
 * `onMapOutcome` hears each of them.
 */
export async function replayOutbox(onOutcome?: (outcome: ReplayOutcome) => void, onMapOutcome?: (outcome: MapReplayOutcome) => void): Promise<ReplayOutcome[]> {
  if (!(await settlePendingSignOut())) throw new ReplayUnreachable('sign-out pending');
  const owner = await sessionOwner();
  if (owner === null) return [];
  const outcomes = await flushOutbox((item) => sendQueuedSave(item, owner), owner, onOutcome);
  // The map editor's drawings saved offline (offline/mapOutbox.ts) go in the same round.
  await flushMapOutbox(owner, onMapOutcome);
  return outcomes;
}
