import { describe, expect, it } from 'vitest';
import { runShortcut, type ActionContext } from './actions';
import { timeBudget } from './budget';
import type { VideoMarkupsReply } from '../../offline/markup-rows';
import { acceptModelRows, confidenceText, modelRowsIn, nextModelRow, rejectModelRows, reviewTarget } from './review';
import { MarkupSession } from './session';

const row = (id: number, start: number, end: number, source: 'manual' | 'model', confidence: number | null = null) => ({
  id,
  operation_id: 1,
  workplace_id: 5,
  employee_id: 7,
  start_time: start,
  end_time: end,
  comment: null,
  source,
  confidence,
  author_name: null,
});

const reply: VideoMarkupsReply = {
  version: 4,
  video_markups: [row(1, 0, 10, 'manual'), row(2, 10, 20, 'model', 0.91), row(3, 20, 30, 'model', 0.42), row(4, 30, 40, 'model', 0.77)],
  video_stamps: [],
};

describe('reviewing the model’s layer', () => {
  it('accepting sends the row for the server to make it the reviewer’s; rejecting deletes it; both undo', () => {
    const session = new MarkupSession(reply);
    expect(session.dirty).toBe(false);
    acceptModelRows(session, [session.row('m2')!]);
    rejectModelRows(session, [session.row('m3')!]);
    const payload = session.buildSavePayload('k');
    expect(payload.video_markups.map((m) => m.id)).toEqual([2]);
    expect(payload.operation_markups_to_delete).toEqual([3]);
    expect(session.row('m2')!.source).toBe('manual');
    session.undo();
    session.undo();
    expect(session.dirty).toBe(false);
    expect(session.row('m2')!.source).toBe('model');
  });

  it('accepting a person’s row changes nothing', () => {
    const session = new MarkupSession(reply);
    acceptModelRows(session, [session.row('m1')!]);
    rejectModelRows(session, [session.row('m1')!]);
    expect(session.dirty).toBe(false);
    expect(session.canUndo).toBe(false);
  });

  it('finds the segment to review (selection first, else under the playhead) and the next one', () => {
    const session = new MarkupSession(reply);
    expect(reviewTarget(session, 15)?.id).toBe(2);
    expect(reviewTarget(session, 5)).toBeNull();
    session.select('m4');
    expect(reviewTarget(session, 15)?.id).toBe(4);
    expect(nextModelRow(session.rows, session.row('m2')!)?.id).toBe(3);
    expect(nextModelRow(session.rows, session.row('m4')!)).toBeNull();
    expect(modelRowsIn(session.rows, 15, 35).map((r) => r.id)).toEqual([2, 3, 4]);
    expect(modelRowsIn(session.rows, 20, 30).map((r) => r.id)).toEqual([3]);
  });

  it('shows confidence as a whole percent', () => {
    expect(confidenceText(0.914)).toBe('91 %');
    expect(confidenceText(null)).toBe('—');
  });

  it('leaves the unreviewed layer out of the video’s time budget', () => {
    const session = new MarkupSession(reply);
    expect(timeBudget(session.rows, 40).map((l) => l.totalSeconds)).toEqual([10]);
    acceptModelRows(session, [session.row('m2')!]);
    expect(timeBudget(session.rows, 40).map((l) => l.totalSeconds)).toEqual([20]);
  });

  it('V and X review one segment, Shift+V and Shift+X the span', () => {
    const calls: string[] = [];
    const ctx = { reviewModel: (decision: string, scope: string) => calls.push(`${decision}:${scope}`) } as unknown as ActionContext;
    const key = (k: string, shiftKey = false) =>
      ({ key: k, shiftKey, ctrlKey: false, metaKey: false, altKey: false, target: null, preventDefault() {} }) as unknown as KeyboardEvent;
    for (const [k, shift] of [
      ['v', false],
      ['x', false],
      ['V', true],
      ['X', true],
    ] as const)
      expect(runShortcut(key(k, shift), ctx)).toBe(true);
    expect(calls).toEqual(['accept:segment', 'reject:segment', 'accept:span', 'reject:span']);
  });
});
