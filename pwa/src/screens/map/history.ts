/**
 * The map project's undo/redo buffer (spec 02 §4, §9): up to 10 snapshots; each save or update
 * adds one; undo and redo move between them and never past either end. A new snapshot after an
 * undo drops the redo tail. Pure: the screen re-saves the snapshot it gets and reloads.
 */
export const HISTORY_CAPACITY = 10;

export interface SnapshotHistory<T> {
  readonly entries: readonly T[];
  /** Index of the snapshot shown now; -1 when empty. */
  readonly index: number;
}

export const emptyHistory = <T>(): SnapshotHistory<T> => ({ entries: [], index: -1 });

/** Starts over from one snapshot (a project opened or switched). */
export const startHistory = <T>(snapshot: T): SnapshotHistory<T> => ({ entries: [snapshot], index: 0 });

/** Adds a snapshot after the current one: the redo tail goes, the oldest beyond the capacity too. */
export function pushSnapshot<T>(history: SnapshotHistory<T>, snapshot: T, capacity = HISTORY_CAPACITY): SnapshotHistory<T> {
  const entries = [...history.entries.slice(0, history.index + 1), snapshot];
  const dropped = Math.max(0, entries.length - capacity);
  return { entries: entries.slice(dropped), index: entries.length - 1 - dropped };
}

export const canUndo = (history: SnapshotHistory<unknown>) => history.index > 0;
export const canRedo = (history: SnapshotHistory<unknown>) => history.index >= 0 && history.index < history.entries.length - 1;

/** One step back: the new history and the snapshot to restore, or null at the start. */
export function undo<T>(history: SnapshotHistory<T>): { history: SnapshotHistory<T>; snapshot: T } | null {
  if (!canUndo(history)) return null;
  const index = history.index - 1;
  return { history: { entries: history.entries, index }, snapshot: history.entries[index] };
}

/** One step forward: the new history and the snapshot to restore, or null at the end. */
export function redo<T>(history: SnapshotHistory<T>): { history: SnapshotHistory<T>; snapshot: T } | null {
  if (!canRedo(history)) return null;
  const index = history.index + 1;
  return { history: { entries: history.entries, index }, snapshot: history.entries[index] };
}
