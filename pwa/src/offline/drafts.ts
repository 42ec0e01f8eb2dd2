import { del, getMany, set } from 'idb-keyval';
import type { MarkupRow, StampRow } from './markup-rows';

/**
 * Unsaved markup of a video, kept in IndexedDB so a reload or a closed tab loses nothing. Each user
 * of the device has their own (`owner`, the login): someone else signing in on a shared tablet
 * never sees or saves the previous user's edits.
 */
export interface MarkupDraft {
  videoId: number;
  /** The server version the draft was based on. */
  version: number;
  /** Every row and stamp; with `partial`, only those new or changed against `version`. */
  rows: MarkupRow[];
  stamps: StampRow[];
  /**
   * Only the changes against `version` (the markup screen writes this after every change: a few
   * rows, not all 10,000), with the saved ids removed since; without it — an older draft — all rows.
   */
  partial?: boolean;
  deletedRowIds?: number[];
  deletedStampIds?: number[];
  savedAt: number;
  owner?: string;
}

const key = (videoId: number, owner: string) => `norma:draft:${encodeURIComponent(owner)}:video:${videoId}`;
/** Where drafts were kept before they had owners; such a draft goes with whoever opens the video. */
const legacyKey = (videoId: number) => `norma:draft:video:${videoId}`;

export async function loadDraft(videoId: number, owner: string): Promise<MarkupDraft | undefined> {
  // Both in one transaction: each is a round trip to the browser's storage.
  const [own, legacy] = await getMany<MarkupDraft>([key(videoId, owner), legacyKey(videoId)]);
  return own ?? legacy;
}
export async function saveDraft(draft: MarkupDraft & { owner: string }) {
  await set(key(draft.videoId, draft.owner), draft);
  await del(legacyKey(draft.videoId));
}
export async function clearDraft(videoId: number, owner: string) {
  await Promise.all([del(key(videoId, owner)), del(legacyKey(videoId))]);
}
