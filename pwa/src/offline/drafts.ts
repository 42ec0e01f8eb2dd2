import { del, get, set } from 'idb-keyval';
import type { MarkupRow, StampRow } from '../screens/video-markup/model';

/** Unsaved markup of a video, kept in IndexedDB so a reload or a closed tab loses nothing. */
export interface MarkupDraft {
  videoId: number;
  /** The server version the draft was based on. */
  version: number;
  rows: MarkupRow[];
  stamps: StampRow[];
  savedAt: number;
}

const key = (videoId: number) => `norma:draft:video:${videoId}`;

export const loadDraft = (videoId: number) => get<MarkupDraft>(key(videoId));
export const saveDraft = (draft: MarkupDraft) => set(key(draft.videoId), draft);
export const clearDraft = (videoId: number) => del(key(videoId));
