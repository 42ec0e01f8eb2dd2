import type { VideoMarkupsReply, VideoMarkupsSave } from '../api/types';

/**
 * A video's markup as rows (the markup screen's session edits them, the outbox stores and replays
 * their saves): conversion from the API's reply, order, equality and validity.
 */

/** The rows the markup screen edits: seconds from the video's start, as the API sends them. */
export interface MarkupRow {
  /** Stable local key; saved rows start as `m{id}`. */
  key: string;
  /** Server id, or -1 for a row not saved yet (spec 01 §9). */
  id: number;
  operation_id: number | null;
  workplace_id: number | null;
  employee_id: number | null;
  start: number;
  end: number;
  comment: string;
  /** 'model': the model's unreviewed layer (not in any report until accepted; docs/vision.md «Слой модели»). */
  source?: 'manual' | 'fill_gaps' | 'model';
  /** A model segment's mean class probability (0…1). */
  confidence?: number | null;
  author_name?: string | null;
}

export interface StampRow {
  key: string;
  id: number;
  type: string;
  time: number;
  comment: string;
  employee_id: number | null;
}

export type { VideoMarkupsReply };

type MarkupBody = NonNullable<VideoMarkupsSave['video_markups']>[number];

/**
 * The save body as the editor builds it (VideoMarkupsSave of the API): a row may still lack its
 * operation or workplace while being edited; invalidRows() keeps such a payload from being sent.
 */
export type SavePayload = Required<
  Pick<VideoMarkupsSave, 'operation_markups_to_delete' | 'video_stamps' | 'video_stamps_to_delete' | 'base_version' | 'client_save_id'>
> & {
  video_markups: (Omit<MarkupBody, 'operation_id' | 'workplace_id'> & { operation_id: number | null; workplace_id: number | null })[];
};

let counter = 0;
export const newKey = (prefix: string) => `${prefix}${Date.now().toString(36)}-${(counter++).toString(36)}`;

export function rowsFromReply(reply: VideoMarkupsReply): { rows: MarkupRow[]; stamps: StampRow[] } {
  return {
    rows: reply.video_markups.map((m) => ({
      key: `m${m.id}`,
      id: m.id,
      operation_id: m.operation_id,
      workplace_id: m.workplace_id,
      employee_id: m.employee_id,
      start: m.start_time,
      end: m.end_time,
      comment: m.comment ?? '',
      source: m.source,
      confidence: m.confidence ?? null,
      author_name: m.author_name,
    })),
    stamps: reply.video_stamps.map((s) => ({ key: `s${s.id}`, id: s.id, type: s.type, time: s.time, comment: s.comment, employee_id: s.employee_id })),
  };
}

/** Items are ordered by first time (spec 01 §4); ties keep a stable order by key. */
export const byStart = (a: MarkupRow, b: MarkupRow) => a.start - b.start || a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Accepting a model segment changes only its source: that is an edit to save as well. */
const reviewed = (row: MarkupRow) => row.source !== 'model';

export const sameRow = (a: MarkupRow, b: MarkupRow) =>
  reviewed(a) === reviewed(b) &&
  a.operation_id === b.operation_id &&
  a.workplace_id === b.workplace_id &&
  a.employee_id === b.employee_id &&
  a.start === b.start &&
  a.end === b.end &&
  a.comment === b.comment;

export const sameStamp = (a: StampRow, b: StampRow) => a.type === b.type && a.time === b.time && a.comment === b.comment && a.employee_id === b.employee_id;

/** spec 01 §5: start before end, an operation and a workplace on every row. */
export function invalidRows(rows: readonly MarkupRow[]): MarkupRow[] {
  return rows.filter((r) => !(r.start < r.end) || r.operation_id === null || r.workplace_id === null);
}
