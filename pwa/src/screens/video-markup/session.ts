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

type Item = { kind: 'row'; row: MarkupRow } | { kind: 'stamp'; stamp: StampRow };

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

  private rowByKey = new Map<string, MarkupRow>();
  private stampByKey = new Map<string, StampRow>();
  private savedRows = new Map<number, MarkupRow>();
  private savedStamps = new Map<number, StampRow>();
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
    this.savedRows = new Map(rows.map((r) => [r.id, r]));
    this.savedStamps = new Map(stamps.map((s) => [s.id, s]));
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
    this.savedRows = new Map(matched.map((r) => [r.id, r]));
    this.savedStamps = new Map(stamps.map((s) => [s.id, s]));
    this.version = reply.version;
    this.setAll(matched, stamps);
    this.emit();
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

  private setAll(rows: MarkupRow[], stamps: StampRow[]) {
    this.rowByKey = new Map(rows.map((r) => [r.key, r]));
    this.stampByKey = new Map(stamps.map((s) => [s.key, s]));
    this.rows = [...rows].sort(byStart);
    this.stamps = [...stamps].sort((a, b) => a.time - b.time);
  }

  row(key: string) {
    return this.rowByKey.get(key) ?? null;
  }

  /** Applies row and stamp changes as one undoable step. */
  apply(label: string, rowChanges: Change<MarkupRow>[], stampChanges: Change<StampRow>[] = [], { record = true } = {}) {
    if (rowChanges.length === 0 && stampChanges.length === 0) return;
    for (const change of rowChanges) {
      if (change.after) this.rowByKey.set(change.key, Object.freeze(change.after));
      else this.rowByKey.delete(change.key);
    }
    for (const change of stampChanges) {
      if (change.after) this.stampByKey.set(change.key, Object.freeze(change.after));
      else this.stampByKey.delete(change.key);
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

  /** Only what changed since the last save travels (incremental saves). */
  buildSavePayload(clientSaveId: string): SavePayload {
    const video_markups = this.rows
      .filter((r) => r.id < 0 || !this.savedRows.has(r.id) || !sameRow(this.savedRows.get(r.id)!, r))
      .map((r) => ({
        id: r.id,
        operation_id: r.operation_id,
        workplace_id: r.workplace_id,
        employee_id: r.employee_id,
        start_time: r.start,
        end_time: r.end,
        comment: r.comment || null,
      }));
    const currentIds = new Set(this.rows.map((r) => r.id));
    const operation_markups_to_delete = [...this.savedRows.keys()].filter((id) => !currentIds.has(id));
    const video_stamps = this.stamps
      .filter((s) => s.id < 0 || !this.savedStamps.has(s.id) || !sameStamp(this.savedStamps.get(s.id)!, s))
      .map((s) => ({ id: s.id, type: s.type, time: s.time, comment: s.comment, employee_id: s.employee_id }));
    const currentStampIds = new Set(this.stamps.map((s) => s.id));
    const video_stamps_to_delete = [...this.savedStamps.keys()].filter((id) => !currentStampIds.has(id));
    return { video_markups, operation_markups_to_delete, video_stamps, video_stamps_to_delete, base_version: this.version, client_save_id: clientSaveId };
  }

  private dirtyAt = { revision: -1, value: false };

  /** The unsaved flag (spec 01 §4), derived from the difference with the last save (once per revision). */
  get dirty() {
    if (this.dirtyAt.revision !== this.revision) {
      const p = this.buildSavePayload('');
      const value = p.video_markups.length + p.operation_markups_to_delete.length + p.video_stamps.length + p.video_stamps_to_delete.length > 0;
      this.dirtyAt = { revision: this.revision, value };
    }
    return this.dirtyAt.value;
  }

  /**
   * Lays local changes over a newer server version (after a 409): rows added here are added
   * again, rows edited here keep the local values where they still exist, rows deleted here are
   * deleted. With a stored draft (whose baseline is gone) deletions cannot be known and are skipped.
   */
  rebase(reply: VideoMarkupsReply, draft?: { rows: MarkupRow[]; stamps: StampRow[] }) {
    const rows = draft?.rows ?? [...this.rows];
    const stamps = draft?.stamps ?? [...this.stamps];
    const added = rows.filter((r) => r.id < 0);
    const edited = rows.filter((r) => r.id > 0 && (draft || !this.savedRows.has(r.id) || !sameRow(this.savedRows.get(r.id)!, r)));
    const deleted = draft ? [] : [...this.savedRows.keys()].filter((id) => !rows.some((r) => r.id === id));
    const addedStamps = stamps.filter((s) => s.id < 0);
    const deletedStamps = draft ? [] : [...this.savedStamps.keys()].filter((id) => !stamps.some((s) => s.id === id));
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

  restoreDraft(draft: { rows: MarkupRow[]; stamps: StampRow[] }) {
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
}
