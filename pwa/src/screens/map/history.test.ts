import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, emptyHistory, HISTORY_CAPACITY, pushSnapshot, redo, startHistory, undo, type SnapshotHistory } from './history';

const fill = (count: number) => {
  let history = startHistory(0);
  for (let i = 1; i < count; i++) history = pushSnapshot(history, i);
  return history;
};

describe('map project history', () => {
  it('keeps the last 10 snapshots', () => {
    expect(HISTORY_CAPACITY).toBe(10);
    const history = fill(14);
    expect(history.entries).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(history.index).toBe(9);
  });

  it('undoes back to the oldest kept snapshot and no further; redoes to the newest and no further', () => {
    let history: SnapshotHistory<number> = fill(12);
    const seen: number[] = [];
    for (let step = undo(history); step; step = undo(history)) {
      seen.push(step.snapshot);
      history = step.history;
    }
    expect(seen).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(canUndo(history)).toBe(false);
    expect(undo(history)).toBeNull();
    expect(canRedo(history)).toBe(true);
    const forward: number[] = [];
    for (let step = redo(history); step; step = redo(history)) {
      forward.push(step.snapshot);
      history = step.history;
    }
    expect(forward).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(canRedo(history)).toBe(false);
    expect(redo(history)).toBeNull();
  });

  it('a new save after undo drops the redo tail', () => {
    let history = fill(5);
    history = undo(history)!.history;
    history = undo(history)!.history;
    expect(history.index).toBe(2);
    history = pushSnapshot(history, 99);
    expect(history.entries).toEqual([0, 1, 2, 99]);
    expect(canRedo(history)).toBe(false);
    expect(undo(history)!.snapshot).toBe(2);
  });

  it('an empty or fresh history can move neither way', () => {
    expect(canUndo(emptyHistory())).toBe(false);
    expect(canRedo(emptyHistory())).toBe(false);
    expect(undo(startHistory('a'))).toBeNull();
    expect(redo(startHistory('a'))).toBeNull();
    expect(pushSnapshot(emptyHistory<string>(), 'a')).toEqual(startHistory('a'));
  });
});
