import { describe, expect, it } from 'vitest';
import { History } from './history';

/** A history of one item, "x", set to 1, 2, … count in turn. */
function fill(count: number, capacity?: number) {
  const history = new History<number>(capacity);
  for (let i = 1; i <= count; i++) history.record({ label: `${i}`, changes: [{ key: 'x', before: i - 1, after: i }] });
  return history;
}

describe('the undo history of diffs', () => {
  it('undo gives the changes back to front with before and after swapped; redo gives the entry again', () => {
    const history = new History<string>();
    history.record({
      label: 'два',
      changes: [
        { key: 'a', before: null, after: 'A' },
        { key: 'b', before: 'b', after: 'B' },
      ],
    });
    expect(history.undo()).toEqual({
      label: 'два',
      changes: [
        { key: 'b', before: 'B', after: 'b' },
        { key: 'a', before: 'A', after: null },
      ],
    });
    expect(history.redo()!.changes[0]).toEqual({ key: 'a', before: null, after: 'A' });
  });

  it('an entry that changes nothing is not a step', () => {
    const history = new History<number>();
    history.record({ label: 'ничего', changes: [] });
    expect(history.canUndo).toBe(false);
  });

  it('keeps only `capacity` steps back, the oldest going first; redo goes as far as undo went', () => {
    const history = fill(12, 9);
    const back: number[] = [];
    for (let step = history.undo(); step; step = history.undo()) back.push(step.changes[0]!.after!);
    expect(back).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(history.canUndo).toBe(false);
    const forward: number[] = [];
    for (let step = history.redo(); step; step = history.redo()) forward.push(step.changes[0]!.after!);
    expect(forward).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(history.canRedo).toBe(false);
  });

  it('a new step after undo drops the redo tail; clear forgets everything', () => {
    const history = fill(4);
    history.undo();
    history.undo();
    history.record({ label: 'новое', changes: [{ key: 'x', before: 2, after: 99 }] });
    expect(history.canRedo).toBe(false);
    expect(history.undo()!.changes[0]).toEqual({ key: 'x', before: 99, after: 2 });
    history.clear();
    expect(history.canUndo || history.canRedo).toBe(false);
    expect(history.undo()).toBeNull();
    expect(history.redo()).toBeNull();
  });
});
