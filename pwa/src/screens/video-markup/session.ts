import { History, type Change } from '../../state/history';
import {
  byStart,
  newKey,
  rowsFromReply,
  sameRow,
  sameStamp,
  type MarkupRow,
  type SavePayload,
  type StampRow,
  type VideoMarkupsReply,
} from '../../offline/markup-rows';
import type { VideoMarkupsChanges } from '../../api/types';
import type { ChangedSpan } from './timeline-segments';

type Item = { kind: 'row'; row: MarkupRow } | { kind: 'stamp'; stamp: StampRow };

/** The timeline lane of a row: its workplace and employee. */
export const laneKey = (row: Pick<MarkupRow, 'workplace_id' | 'employee_id'>) => `${row.workplace_id}:${row.employee_id}`;

/** What a draft of changes holds besides its version (toChangesDraft). */
export type DraftChanges = { rows: MarkupRow[]; stamps: StampRow[]; deletedRowIds: number[]; deletedStampIds: number[] };

/** The local keys of the new rows and stamps a save sent, in the order it sent them. */
export type SentKeys = { rows: string[]; stamps: string[] };

/**
 * The local key each saved row of a save's answer takes: a row known before keeps its key; the
 * rows the server created for the save's new rows (its own, in ascending ids) take the keys those
 * had here, in the order they were sent — the server rounds times to milliseconds, so content may
 * differ a little; anything else (filled gaps, the model's clipped pieces) is matched by content
 * with a local new row, or gets a key of its own.
 */
function keysForSaved<T extends { id: number; key: string; author_name?: string | null; source?: string }>(
  fresh: T[],
  saved: Map<number, T>,
  sentKeys: string[],
  local: readonly T[],
  same: (a: T, b: T) => boolean,
): Map<number, string> {
  const keys = new Map<number, string>();
  const created = fresh.filter((r) => !saved.has(r.id) && (r.source === undefined || r.source === 'manual')).sort((a, b) => a.id - b.id);
  const zipped = created.length === sentKeys.length;
  if (zipped) created.forEach((r, i) => keys.set(r.id, sentKeys[i]!));
  const unsaved = local.filter((r) => r.id < 0 && !(zipped && sentKeys.includes(r.key)));
  for (const row of fresh) {
    if (keys.has(row.id)) continue;
    const known = saved.get(row.id)?.key;
    if (known) {
      keys.set(row.id, known);
      continue;
    }
    const match = unsaved.find((u) => same(u, row));
    if (match) unsaved.splice(unsaved.indexOf(match), 1);
    keys.set(row.id, match?.key ?? row.key);
  }
  return keys;
}

/** First index whose row sorts at or after `row`. */
function lowerBound(rows: readonly MarkupRow[], row: MarkupRow): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byStart(rows[mid]!, row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A few changed rows patched into the sorted list by binary search instead of sorting all
 * 10,000 again: a key press during coding stays well under a frame.
 */
function patchSorted(rows: readonly MarkupRow[], changes: Change<MarkupRow>[]): MarkupRow[] {
  const next = rows.slice();
  for (const change of changes) {
    if (change.before) {
      let at = lowerBound(next, change.before);
      while (at < next.length && next[at]!.key !== change.key) at++;
      if (at < next.length) next.splice(at, 1);
      else {
        const index = next.findIndex((r) => r.key === change.key);
        if (index >= 0) next.splice(index, 1);
      }
    }
    if (change.after) next.splice(lowerBound(next, change.after), 0, Object.freeze(change.after));
  }
  return next;
}

/**
 * The markup of one video being edited: rows and note stamps, the saved baseline they are compared
 * with, undo/redo, the selection and the segment being coded with the keyboard. Immutable rows in
 * sorted arrays; subscribers re-render on `revision`. Kept out of valtio on purpose: 10,000 rows
 * as plain frozen objects are cheaper than 10,000 proxies.
 */
export class MarkupSession {
  rows: readonly MarkupRow[] = [];
  stamps: readonly StampRow[] = [];
  version = 0;
  revision = 0;
  selectedKey: string | null = null;
  /** The segment opened by an operation key whose end follows the playhead. */
  codingKey: string | null = null;

  /** Rises only when a lane (workplace and employee) appears or goes: the timeline's lanes follow it. */
  laneRevision = 0;
  /** Rows of the model's unreviewed layer. */
  modelRowCount = 0;
  /** No row is longer than this (seconds): the timeline's search for rows in view starts that far back. */
  longestRow = 0;

  private rowByKey = new Map<string, MarkupRow>();
  private stampByKey = new Map<string, StampRow>();
  private savedRows = new Map<number, MarkupRow>();
  private savedStamps = new Map<number, StampRow>();
  /** The saved id each key stands for: a key gone from the rows with one here is a deletion to save. */
  private savedRowKeys = new Map<string, number>();
  private savedStampKeys = new Map<string, number>();
  /**
   * Keys changed since the rows last equalled the saved baseline: only these can differ from it,
   * so the unsaved flag looks at them, not at all 10,000 rows.
   */
  private touchedRows = new Set<string>();
  private touchedStamps = new Set<string>();
  private laneCounts = new Map<string, number>();
  /** The time span each recent revision changed rows in (the timeline redraws only there). */
  private rowSpans: { revision: number; from: number; to: number }[] = [];
  /** Revisions up to this one may have changed any row (a load, or a span log that ran over). */
  private allChangedAt = 0;
  private readonly history = new History<Item>();
  private listeners = new Set<() => void>();

  constructor(reply?: VideoMarkupsReply) {
    if (reply) this.loadFromServer(reply);
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getRevision = () => this.revision;

  private emit() {
    this.revision++;
    for (const listener of this.listeners) listener();
  }

  /** Replaces everything with the server's answer (load, save, fill gaps). */
  loadFromServer(reply: VideoMarkupsReply, { keepHistory = false } = {}) {
    const { rows, stamps } = rowsFromReply(reply);
    this.setSaved(rows, stamps);
    this.version = reply.version;
    if (!keepHistory) this.history.clear();
    this.setAll(rows, stamps);
    if (this.selectedKey && !this.rowByKey.has(this.selectedKey)) this.selectedKey = null;
    this.codingKey = null;
    this.emit();
  }

  /**
   * After a save: the server's rows become the baseline, and rows that were new locally keep their
   * keys (matched by content), so the selection and the undo history stay meaningful.
   */
  acceptSaved(reply: VideoMarkupsReply) {
    const { rows, stamps } = rowsFromReply(reply);
    const unsaved = this.rows.filter((r) => r.id < 0);
    const matched = rows.map((row) => {
      const local = unsaved.find((u) => sameRow(u, row));
      if (!local) return row;
      unsaved.splice(unsaved.indexOf(local), 1);
      return { ...row, key: local.key };
    });
    this.setSaved(matched, stamps);
    this.version = reply.version;
    this.setAll(matched, stamps);
    this.emit();
  }

  /**
   * After a save answered with its changes (PUT …?reply=changes): only the rows the save wrote or
   * removed — the model's rows it clipped among them — change here, the other 10,000 stay as they
   * are. Rows that were new locally keep their keys (matched by content). A complete answer (a
   * save sent twice) replaces everything; false when the changes lie on another version than this
   * session's (the caller then loads the whole markup).
   */
  acceptChanges(reply: VideoMarkupsChanges, sent: SentKeys = { rows: [], stamps: [] }): boolean {
    if (reply.complete) {
      this.acceptSaved(reply);
      return true;
    }
    if (reply.base_version !== this.version) return false;
    const { rows, stamps } = rowsFromReply(reply);
    const rowKeys = keysForSaved(rows, this.savedRows, sent.rows, this.rows, sameRow);
    const stampKeys = keysForSaved(stamps, this.savedStamps, sent.stamps, this.stamps, sameStamp);
    const rowChanges: Change<MarkupRow>[] = [];
    for (const id of reply.deleted_markup_ids) {
      const key = this.savedRows.get(id)?.key ?? `m${id}`;
      this.savedRows.delete(id);
      this.savedRowKeys.delete(key);
      this.touchedRows.add(key);
      const before = this.rowByKey.get(key);
      if (before) rowChanges.push({ key, before, after: null });
    }
    for (const row of rows) {
      const after = Object.freeze({ ...row, key: rowKeys.get(row.id)! });
      this.savedRows.set(row.id, after);
      this.savedRowKeys.set(after.key, row.id);
      rowChanges.push({ key: after.key, before: this.rowByKey.get(after.key) ?? null, after });
    }
    const stampChanges: Change<StampRow>[] = [];
    for (const id of reply.deleted_stamp_ids) {
      const key = this.savedStamps.get(id)?.key ?? `s${id}`;
      this.savedStamps.delete(id);
      this.savedStampKeys.delete(key);
      this.touchedStamps.add(key);
      const before = this.stampByKey.get(key);
      if (before) stampChanges.push({ key, before, after: null });
    }
    for (const stamp of stamps) {
      const after = Object.freeze({ ...stamp, key: stampKeys.get(stamp.id)! });
      this.savedStamps.set(stamp.id, after);
      this.savedStampKeys.set(after.key, stamp.id);
      stampChanges.push({ key: after.key, before: this.stampByKey.get(after.key) ?? null, after });
    }
    this.version = reply.version;
    if (rowChanges.length || stampChanges.length) this.apply('', rowChanges, stampChanges, { record: false });
    else this.emit();
    return true;
  }

  /** The saved baseline as the API's reply: what the device keeps to open the video offline. */
  savedReply(): VideoMarkupsReply {
    const rows = [...this.savedRows.values()].sort(byStart);
    return {
      video_markups: rows.map((r) => ({
        id: r.id,
        operation_id: r.operation_id!,
        workplace_id: r.workplace_id!,
        employee_id: r.employee_id,
        start_time: r.start,
        end_time: r.end,
        comment: r.comment || null,
        source: r.source ?? 'manual',
        confidence: r.confidence ?? null,
        author_name: r.author_name ?? null,
      })),
      video_stamps: [...this.savedStamps.values()]
        .sort((a, b) => a.time - b.time)
        .map((s) => ({ id: s.id, type: s.type, time: s.time, comment: s.comment, employee_id: s.employee_id, author_name: null })),
      version: this.version,
    };
  }

  /**
   * Records rows the server added (fill gaps) as one undoable step, so undo takes them away
   * locally (and the next save deletes them).
   */
  recordAdded(label: string, keys: string[]) {
    const changes = keys
      .map((key) => this.rowByKey.get(key))
      .filter((r): r is MarkupRow => !!r)
      .map((row) => ({ key: row.key, before: null, after: { kind: 'row' as const, row } }));
    this.history.record({ label, changes });
    this.emit();
  }

  /** The saved baseline: by id, and which key stands for which id. */
  private setSaved(rows: MarkupRow[], stamps: StampRow[]) {
    this.savedRows = new Map(rows.map((r) => [r.id, r]));
    this.savedStamps = new Map(stamps.map((s) => [s.id, s]));
    this.savedRowKeys = new Map(rows.map((r) => [r.key, r.id]));
    this.savedStampKeys = new Map(stamps.map((s) => [s.key, s.id]));
  }

  /** Everything replaced by the saved baseline (`rows` and `stamps` are it): nothing is unsaved. */
  private setAll(rows: MarkupRow[], stamps: StampRow[]) {
    this.rowByKey = new Map(rows.map((r) => [r.key, r]));
    this.stampByKey = new Map(stamps.map((s) => [s.key, s]));
    this.rows = [...rows].sort(byStart);
    this.stamps = [...stamps].sort((a, b) => a.time - b.time);
    this.touchedRows.clear();
    this.touchedStamps.clear();
    this.allChangedAt = this.revision + 1;
    this.rowSpans = [];
    this.laneCounts.clear();
    this.modelRowCount = 0;
    this.longestRow = 0;
    for (const row of rows) this.count(row, 1);
    this.laneRevision++;
  }

  /** Keeps the lane counts, the model's row count and the longest row in step with one row coming (+1) or going (-1). */
  private count(row: MarkupRow, delta: 1 | -1) {
    const lane = laneKey(row);
    const n = (this.laneCounts.get(lane) ?? 0) + delta;
    if (n > 0) this.laneCounts.set(lane, n);
    else this.laneCounts.delete(lane);
    if ((delta === 1 && n === 1) || n === 0) this.laneRevision++;
    if (row.source === 'model') this.modelRowCount += delta;
    // Never lowered by a removal: an upper bound is all the timeline needs.
    if (delta === 1) this.longestRow = Math.max(this.longestRow, row.end - row.start);
  }

  /** The time span rows changed in after `revision` (for the timeline's bitmap, timeline-segments.ts). */
  rowsChangedSince = (revision: number): ChangedSpan => {
    if (revision < this.allChangedAt) return 'all';
    let from = Infinity;
    let to = -Infinity;
    for (let i = this.rowSpans.length - 1; i >= 0 && this.rowSpans[i]!.revision > revision; i--) {
      from = Math.min(from, this.rowSpans[i]!.from);
      to = Math.max(to, this.rowSpans[i]!.to);
    }
    return from <= to ? { from, to } : null;
  };

  /** Notes that rows changed in [from, to] at the coming revision. */
  private logSpan(from: number, to: number) {
    if (!(from <= to)) return;
    this.rowSpans.push({ revision: this.revision + 1, from, to });
    if (this.rowSpans.length > 256) this.allChangedAt = this.rowSpans.shift()!.revision;
  }

  /** The lanes (workplace:employee) rows lie in, in order of first appearance. */
  laneKeys(): string[] {
    return [...this.laneCounts.keys()];
  }

  row(key: string) {
    return this.rowByKey.get(key) ?? null;
  }

  /** The row's index in `rows` by binary search, -1 when it is not there. */
  indexOf(key: string): number {
    const row = this.rowByKey.get(key);
    if (!row) return -1;
    for (let at = lowerBound(this.rows, row); at < this.rows.length && byStart(this.rows[at]!, row) === 0; at++) if (this.rows[at]!.key === key) return at;
    return this.rows.findIndex((r) => r.key === key);
  }

  /** Applies row and stamp changes as one undoable step. */
  apply(label: string, rowChanges: Change<MarkupRow>[], stampChanges: Change<StampRow>[] = [], { record = true } = {}) {
    if (rowChanges.length === 0 && stampChanges.length === 0) return;
    let from = Infinity;
    let to = -Infinity;
    for (const change of rowChanges) {
      const current = this.rowByKey.get(change.key);
      for (const row of [current, change.before, change.after])
        if (row) {
          from = Math.min(from, row.start);
          to = Math.max(to, row.end);
        }
      if (current) this.count(current, -1);
      if (change.after) {
        this.rowByKey.set(change.key, Object.freeze(change.after));
        this.count(change.after, 1);
      } else this.rowByKey.delete(change.key);
      this.touchedRows.add(change.key);
    }
    this.logSpan(from, to);
    for (const change of stampChanges) {
      if (change.after) this.stampByKey.set(change.key, Object.freeze(change.after));
      else this.stampByKey.delete(change.key);
      this.touchedStamps.add(change.key);
    }
    if (record) {
      this.history.record({
        label,
        changes: [
          ...rowChanges.map((c) => ({
            key: c.key,
            before: c.before && { kind: 'row' as const, row: c.before },
            after: c.after && { kind: 'row' as const, row: c.after },
          })),
          ...stampChanges.map((c) => ({
            key: c.key,
            before: c.before && { kind: 'stamp' as const, stamp: c.before },
            after: c.after && { kind: 'stamp' as const, stamp: c.after },
          })),
        ],
      });
    }
    this.rows = rowChanges.length <= 64 ? patchSorted(this.rows, rowChanges) : [...this.rowByKey.values()].sort(byStart);
    if (stampChanges.length) this.stamps = [...this.stampByKey.values()].sort((a, b) => a.time - b.time);
    if (this.selectedKey && !this.rowByKey.has(this.selectedKey)) this.selectedKey = null;
    if (this.codingKey && !this.rowByKey.has(this.codingKey)) this.codingKey = null;
    this.emit();
  }

  private replay(entry: { changes: Change<Item>[] } | null) {
    if (!entry) return false;
    const rowChanges: Change<MarkupRow>[] = [];
    const stampChanges: Change<StampRow>[] = [];
    for (const c of entry.changes) {
      const kind = (c.after ?? c.before)!.kind;
      if (kind === 'row')
        rowChanges.push({ key: c.key, before: c.before?.kind === 'row' ? c.before.row : null, after: c.after?.kind === 'row' ? c.after.row : null });
      else
        stampChanges.push({ key: c.key, before: c.before?.kind === 'stamp' ? c.before.stamp : null, after: c.after?.kind === 'stamp' ? c.after.stamp : null });
    }
    this.apply('', rowChanges, stampChanges, { record: false });
    return true;
  }

  undo = () => this.replay(this.history.undo());
  redo = () => this.replay(this.history.redo());
  get canUndo() {
    return this.history.canUndo;
  }
  get canRedo() {
    return this.history.canRedo;
  }

  addRow(values: Partial<MarkupRow>, label = 'Добавить операцию'): MarkupRow {
    const row: MarkupRow = {
      key: newKey('n'),
      id: -1,
      operation_id: null,
      workplace_id: null,
      employee_id: null,
      start: 0,
      end: 0,
      comment: '',
      source: 'manual',
      ...values,
    };
    this.apply(label, [{ key: row.key, before: null, after: row }]);
    return row;
  }

  updateRow(key: string, change: Partial<Omit<MarkupRow, 'key' | 'id'>>, label = 'Изменить операцию') {
    const before = this.rowByKey.get(key);
    if (!before) return;
    const after = { ...before, ...change };
    if (sameRow(before, after)) return;
    this.apply(label, [{ key, before, after }]);
  }

  /** Removing renumbers the rest; a saved row's id goes to the delete list at save time. */
  removeRow(key: string) {
    const before = this.rowByKey.get(key);
    if (before) this.apply('Удалить операцию', [{ key, before, after: null }]);
  }

  addStamp(values: Omit<StampRow, 'key' | 'id'>) {
    const stamp: StampRow = { key: newKey('t'), id: -1, ...values };
    this.apply('Отметка', [], [{ key: stamp.key, before: null, after: stamp }]);
    return stamp;
  }

  removeStamp(key: string) {
    const before = this.stampByKey.get(key);
    if (before) this.apply('Удалить отметку', [], [{ key, before, after: null }]);
  }

  select(key: string | null) {
    this.selectedKey = key;
    this.emit();
  }

  setCoding(key: string | null) {
    this.codingKey = key;
    this.emit();
  }

  /**
   * A save: only what changed since the last save travels (incremental saves), and the local keys
   * of the new rows and stamps it sends, taken in the same pass in the same order — the server's
   * answer gives its new rows to these keys in that order (acceptChanges), so the two cannot drift.
   */
  prepareSave(clientSaveId: string): { payload: SavePayload; sent: SentKeys } {
    const sent: SentKeys = { rows: [], stamps: [] };
    const video_markups: SavePayload['video_markups'] = [];
    for (const r of this.rows) {
      if (!(r.id < 0 || !this.savedRows.has(r.id) || !sameRow(this.savedRows.get(r.id)!, r))) continue;
      if (r.id < 0) sent.rows.push(r.key);
      video_markups.push({
        id: r.id,
        operation_id: r.operation_id,
        workplace_id: r.workplace_id,
        employee_id: r.employee_id,
        start_time: r.start,
        end_time: r.end,
        comment: r.comment || null,
      });
    }
    const currentIds = new Set(this.rows.map((r) => r.id));
    const operation_markups_to_delete = [...this.savedRows.keys()].filter((id) => !currentIds.has(id));
    const video_stamps: SavePayload['video_stamps'] = [];
    for (const s of this.stamps) {
      if (!(s.id < 0 || !this.savedStamps.has(s.id) || !sameStamp(this.savedStamps.get(s.id)!, s))) continue;
      if (s.id < 0) sent.stamps.push(s.key);
      video_stamps.push({ id: s.id, type: s.type, time: s.time, comment: s.comment, employee_id: s.employee_id });
    }
    const currentStampIds = new Set(this.stamps.map((s) => s.id));
    const video_stamps_to_delete = [...this.savedStamps.keys()].filter((id) => !currentStampIds.has(id));
    return {
      payload: { video_markups, operation_markups_to_delete, video_stamps, video_stamps_to_delete, base_version: this.version, client_save_id: clientSaveId },
      sent,
    };
  }

  /** The body of a save (prepareSave without the keys). */
  buildSavePayload(clientSaveId: string): SavePayload {
    return this.prepareSave(clientSaveId).payload;
  }

  private dirtyAt = { revision: -1, value: false };

  /**
   * The unsaved flag (spec 01 §4): whether a save would send anything (buildSavePayload), decided
   * from the keys changed since the baseline alone — a key press at 10,000 rows looks at a few
   * rows, not all of them. Keys found equal to the baseline again (undone) are forgotten.
   */
  get dirty() {
    if (this.dirtyAt.revision !== this.revision) {
      let value = false;
      for (const key of this.touchedRows) {
        if (this.rowDiffers(key)) value = true;
        else this.touchedRows.delete(key);
      }
      for (const key of this.touchedStamps) {
        if (this.stampDiffers(key)) value = true;
        else this.touchedStamps.delete(key);
      }
      this.dirtyAt = { revision: this.revision, value };
    }
    return this.dirtyAt.value;
  }

  /** The row of `key` would travel in a save: new, changed, or a saved row removed. */
  private rowDiffers(key: string) {
    const row = this.rowByKey.get(key);
    if (!row) return this.savedRowKeys.has(key);
    const saved = row.id > 0 ? this.savedRows.get(row.id) : undefined;
    return !saved || !sameRow(saved, row) || (this.savedRowKeys.has(key) && this.savedRowKeys.get(key) !== row.id);
  }

  private stampDiffers(key: string) {
    const stamp = this.stampByKey.get(key);
    if (!stamp) return this.savedStampKeys.has(key);
    const saved = stamp.id > 0 ? this.savedStamps.get(stamp.id) : undefined;
    return !saved || !sameStamp(saved, stamp) || (this.savedStampKeys.has(key) && this.savedStampKeys.get(key) !== stamp.id);
  }

  /**
   * Lays local changes over a newer server version (after a 409): rows added here are added
   * again, rows edited here keep the local values where they still exist, rows deleted here are
   * deleted. A stored draft of changes names its deletions; with an older draft of all rows (whose
   * baseline is gone) deletions cannot be known and are skipped.
   */
  rebase(reply: VideoMarkupsReply, draft?: { rows: MarkupRow[]; stamps: StampRow[] } & Partial<DraftChanges>) {
    const rows = draft?.rows ?? [...this.rows];
    const stamps = draft?.stamps ?? [...this.stamps];
    const added = rows.filter((r) => r.id < 0);
    const edited = rows.filter((r) => r.id > 0 && (draft || !this.savedRows.has(r.id) || !sameRow(this.savedRows.get(r.id)!, r)));
    const currentIds = new Set(rows.map((r) => r.id));
    const currentStampIds = new Set(stamps.map((s) => s.id));
    // A draft of changes names the saved rows it removed; a whole draft's removals cannot be known.
    const deleted = draft ? (draft.deletedRowIds ?? []) : [...this.savedRows.keys()].filter((id) => !currentIds.has(id));
    const addedStamps = stamps.filter((s) => s.id < 0);
    const deletedStamps = draft ? (draft.deletedStampIds ?? []) : [...this.savedStamps.keys()].filter((id) => !currentStampIds.has(id));
    this.loadFromServer(reply);
    const rowChanges: Change<MarkupRow>[] = [];
    for (const row of added) rowChanges.push({ key: row.key, before: null, after: row });
    for (const row of edited) {
      const current = this.rowByKey.get(`m${row.id}`);
      if (current && !sameRow(current, row)) rowChanges.push({ key: current.key, before: current, after: { ...row, key: current.key } });
    }
    for (const id of deleted) {
      const current = this.rowByKey.get(`m${id}`);
      if (current) rowChanges.push({ key: current.key, before: current, after: null });
    }
    const stampChanges: Change<StampRow>[] = addedStamps.map((s) => ({ key: s.key, before: null, after: s }));
    for (const id of deletedStamps) {
      const current = this.stampByKey.get(`s${id}`);
      if (current) stampChanges.push({ key: current.key, before: current, after: null });
    }
    this.apply('Наложить изменения', rowChanges, stampChanges);
  }

  /** A local draft: enough to rebuild the unsaved state after a reload. */
  toDraft() {
    return { version: this.version, rows: [...this.rows], stamps: [...this.stamps] };
  }

  /**
   * The draft the screen keeps on the device after each change: only what differs from the saved
   * baseline (`version`) — new and changed rows and stamps and the saved ids removed — found from
   * the keys changed since it, so writing it costs what was changed, not all 10,000 rows.
   */
  toChangesDraft(): DraftChanges & { version: number; partial: true } {
    const rows: MarkupRow[] = [];
    const stamps: StampRow[] = [];
    const deletedRowIds: number[] = [];
    const deletedStampIds: number[] = [];
    for (const key of this.touchedRows) {
      if (!this.rowDiffers(key)) continue;
      const row = this.rowByKey.get(key);
      if (row) rows.push(row);
      const savedId = this.savedRowKeys.get(key);
      if (savedId !== undefined && row?.id !== savedId) deletedRowIds.push(savedId);
    }
    for (const key of this.touchedStamps) {
      if (!this.stampDiffers(key)) continue;
      const stamp = this.stampByKey.get(key);
      if (stamp) stamps.push(stamp);
      const savedId = this.savedStampKeys.get(key);
      if (savedId !== undefined && stamp?.id !== savedId) deletedStampIds.push(savedId);
    }
    return { version: this.version, partial: true, rows, stamps, deletedRowIds, deletedStampIds };
  }

  /**
   * Lays a draft over the markup of its version: a draft of changes (toChangesDraft) changes only
   * what it names, its rows found by saved id; a whole draft makes the rows exactly its rows.
   */
  restoreDraft(draft: { rows: MarkupRow[]; stamps: StampRow[] } & Partial<DraftChanges & { partial: boolean }>) {
    if (draft.partial) {
      this.restoreChanges(draft);
      return;
    }
    const rowChanges: Change<MarkupRow>[] = [];
    const wanted = new Map(draft.rows.map((r) => [r.key, r]));
    for (const [key, before] of this.rowByKey) if (!wanted.has(key)) rowChanges.push({ key, before, after: null });
    for (const [key, after] of wanted) {
      const before = this.rowByKey.get(key) ?? null;
      if (!before || !sameRow(before, after)) rowChanges.push({ key, before, after });
    }
    const stampChanges: Change<StampRow>[] = [];
    const wantedStamps = new Map(draft.stamps.map((s) => [s.key, s]));
    for (const [key, before] of this.stampByKey) if (!wantedStamps.has(key)) stampChanges.push({ key, before, after: null });
    for (const [key, after] of wantedStamps) {
      const before = this.stampByKey.get(key) ?? null;
      if (!before || !sameStamp(before, after)) stampChanges.push({ key, before, after });
    }
    this.apply('Восстановить черновик', rowChanges, stampChanges);
  }

  /** restoreDraft of a draft of changes: each row or stamp takes the key its saved id has here. */
  private restoreChanges(draft: { rows: MarkupRow[]; stamps: StampRow[] } & Partial<DraftChanges>) {
    const rowKey = (row: MarkupRow) => (row.id > 0 ? (this.savedRows.get(row.id)?.key ?? row.key) : row.key);
    const stampKey = (stamp: StampRow) => (stamp.id > 0 ? (this.savedStamps.get(stamp.id)?.key ?? stamp.key) : stamp.key);
    const rowChanges: Change<MarkupRow>[] = [];
    for (const id of draft.deletedRowIds ?? []) {
      const key = this.savedRows.get(id)?.key;
      const before = key ? this.rowByKey.get(key) : undefined;
      if (key && before) rowChanges.push({ key, before, after: null });
    }
    for (const row of draft.rows) {
      const key = rowKey(row);
      const before = this.rowByKey.get(key) ?? null;
      const after = { ...row, key };
      if (!before || !sameRow(before, after)) rowChanges.push({ key, before, after });
    }
    const stampChanges: Change<StampRow>[] = [];
    for (const id of draft.deletedStampIds ?? []) {
      const key = this.savedStamps.get(id)?.key;
      const before = key ? this.stampByKey.get(key) : undefined;
      if (key && before) stampChanges.push({ key, before, after: null });
    }
    for (const stamp of draft.stamps) {
      const key = stampKey(stamp);
      const before = this.stampByKey.get(key) ?? null;
      const after = { ...stamp, key };
      if (!before || !sameStamp(before, after)) stampChanges.push({ key, before, after });
    }
    this.apply('Восстановить черновик', rowChanges, stampChanges);
  }
}
