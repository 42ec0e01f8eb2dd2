/**
 * Undo/redo that records diffs, not commands (as tldraw's HistoryManager): each entry lists the
 * items it changed with their value before and after. A bulk edit (fill gaps, a drag) is one entry.
 * The one undo model of the PWA: the markup screen's rows and stamps, the map's collections.
 */
export interface Change<T> {
  key: string;
  before: T | null;
  after: T | null;
}

export interface HistoryEntry<T> {
  label: string;
  changes: Change<T>[];
}

export class History<T> {
  private done: HistoryEntry<T>[] = [];
  private undone: HistoryEntry<T>[] = [];

  /** `capacity`: how many steps back are kept; the oldest goes first. */
  constructor(private readonly capacity = Infinity) {}

  record(entry: HistoryEntry<T>) {
    if (entry.changes.length === 0) return;
    this.done.push(entry);
    if (this.done.length > this.capacity) this.done.shift();
    this.undone = [];
  }

  /** The changes that revert the last entry, or null at the start of history. */
  undo(): HistoryEntry<T> | null {
    const entry = this.done.pop();
    if (!entry) return null;
    this.undone.push(entry);
    return { label: entry.label, changes: entry.changes.map((c) => ({ key: c.key, before: c.after, after: c.before })).reverse() };
  }

  redo(): HistoryEntry<T> | null {
    const entry = this.undone.pop();
    if (!entry) return null;
    this.done.push(entry);
    return entry;
  }

  get canUndo() {
    return this.done.length > 0;
  }

  get canRedo() {
    return this.undone.length > 0;
  }

  clear() {
    this.done = [];
    this.undone = [];
  }
}
