import { describe, expect, it } from 'vitest';
import { runShortcut, shortcutActions, toolbarActions, type ActionContext } from './actions';
import { agreement } from './agreement';
import { timeBudget } from './budget';
import { endCoding, gaps, nextGapStart, nextSegment, pressOperationKey, previousSegment } from './coding';
import { invalidRows, type MarkupRow, type VideoMarkupsReply } from '../../offline/markup-rows';
import { MarkupSession } from './session';
import { CHOOSE_LANE_FIRST, laneMissing } from './useCodingInput';

const reply: VideoMarkupsReply = {
  version: 3,
  video_markups: [
    { id: 10, operation_id: 1, workplace_id: 5, employee_id: 7, start_time: 0, end_time: 10, comment: null, source: 'manual', author_name: 'М' },
    { id: 11, operation_id: 2, workplace_id: 5, employee_id: 7, start_time: 20, end_time: 30, comment: 'x', source: 'manual', author_name: 'М' },
  ],
  video_stamps: [{ id: 3, type: 'note', time: 4, comment: '', employee_id: null, author_name: null }],
};

describe('markup session', () => {
  it('keeps rows ordered by start and sends only what changed', () => {
    const session = new MarkupSession(reply);
    expect(session.dirty).toBe(false);
    session.addRow({ operation_id: 1, workplace_id: 5, start: 12, end: 15 });
    session.updateRow('m11', { comment: 'y' });
    session.removeRow('m10');
    expect(session.rows.map((r) => r.start)).toEqual([12, 20]);
    const payload = session.buildSavePayload('abc');
    expect(payload.video_markups.map((m) => [m.id, m.start_time])).toEqual([
      [-1, 12],
      [11, 20],
    ]);
    expect(payload.operation_markups_to_delete).toEqual([10]);
    expect(payload.video_stamps).toEqual([]);
    expect(payload.base_version).toBe(3);
    expect(session.dirty).toBe(true);
  });

  it('undoes and redoes every step, bulk ones included, back to a clean state', () => {
    const session = new MarkupSession(reply);
    session.apply('bulk', [
      { key: 'g1', before: null, after: { key: 'g1', id: -1, operation_id: 9, workplace_id: 5, employee_id: 7, start: 10, end: 20, comment: '' } },
      { key: 'g2', before: null, after: { key: 'g2', id: -1, operation_id: 9, workplace_id: 5, employee_id: 7, start: 30, end: 40, comment: '' } },
    ]);
    session.removeRow('m10');
    session.addStamp({ type: 'note', time: 8, comment: 'a', employee_id: null });
    expect(session.rows).toHaveLength(3);
    while (session.undo());
    expect(session.rows.map((r) => r.key)).toEqual(['m10', 'm11']);
    expect(session.stamps).toHaveLength(1);
    expect(session.dirty).toBe(false);
    while (session.redo());
    expect(session.rows.map((r) => r.key)).toEqual(['g1', 'm11', 'g2']);
    expect(session.stamps).toHaveLength(2);
  });

  it('keeps local keys of new rows after a save so selection and history survive', () => {
    const session = new MarkupSession(reply);
    const row = session.addRow({ operation_id: 1, workplace_id: 5, employee_id: 7, start: 40, end: 50 });
    session.select(row.key);
    session.acceptSaved({
      ...reply,
      version: 4,
      video_markups: [
        ...reply.video_markups,
        { id: 12, operation_id: 1, workplace_id: 5, employee_id: 7, start_time: 40, end_time: 50, comment: null, source: 'manual', author_name: 'М' },
      ],
    });
    expect(session.row(row.key)?.id).toBe(12);
    expect(session.selectedKey).toBe(row.key);
    expect(session.dirty).toBe(false);
    expect(session.version).toBe(4);
  });

  it('merges a save’s changes: new rows keep their keys, clipped model rows come and go, the rest stays as it was', () => {
    const session = new MarkupSession({
      ...reply,
      video_markups: [
        ...reply.video_markups,
        { id: 20, operation_id: 2, workplace_id: 5, employee_id: 7, start_time: 40, end_time: 70, comment: 'Модель', source: 'model', author_name: null },
      ],
    });
    const untouched = session.row('m10');
    // Times the server rounds to whole milliseconds: the new row is known by the order it was sent in, not by content.
    const row = session.addRow({ operation_id: 1, workplace_id: 5, employee_id: 7, start: 50.00049, end: 60 });
    session.select(row.key);
    session.updateRow('m11', { comment: 'z' });
    const { sent } = session.prepareSave('k');
    const model = (start: number, end: number, id: number) => ({
      id,
      operation_id: 2,
      workplace_id: 5,
      employee_id: 7,
      start_time: start,
      end_time: end,
      comment: 'Модель',
      source: 'model' as const,
      author_name: null,
    });
    const merged = session.acceptChanges(
      {
        video_markups: [
          { id: 11, operation_id: 2, workplace_id: 5, employee_id: 7, start_time: 20, end_time: 30, comment: 'z', source: 'manual', author_name: 'М' },
          model(40, 50, 31),
          { id: 30, operation_id: 1, workplace_id: 5, employee_id: 7, start_time: 50, end_time: 60, comment: null, source: 'manual', author_name: 'М' },
          model(60, 70, 32),
        ],
        video_stamps: [],
        deleted_markup_ids: [20],
        deleted_stamp_ids: [],
        base_version: 3,
        version: 4,
        complete: false,
      },
      sent,
    );
    expect(merged).toBe(true);
    expect(session.rows.map((r) => [r.id, r.start, r.end, r.source])).toEqual([
      [10, 0, 10, 'manual'],
      [11, 20, 30, 'manual'],
      [31, 40, 50, 'model'],
      [30, 50, 60, 'manual'],
      [32, 60, 70, 'model'],
    ]);
    expect(session.row(row.key)?.id).toBe(30);
    expect(session.selectedKey).toBe(row.key);
    expect(session.row('m10')).toBe(untouched);
    expect(session.version).toBe(4);
    expect(session.dirty).toBe(false);
    expect(session.modelRowCount).toBe(2);
    // The saved baseline moved with the changes: a removal now is a deletion of the saved id.
    session.removeRow('m31');
    expect(session.buildSavePayload('x').operation_markups_to_delete).toEqual([31]);
    expect(session.dirty).toBe(true);
    expect(session.savedReply().video_markups.map((m) => m.id)).toEqual([10, 11, 31, 30, 32]);
  });

  it('names the keys of a save’s new rows and stamps in the order its body sends them, from one pass', () => {
    const session = new MarkupSession(reply);
    // Added out of time order: the body sends rows sorted by start, and the keys must follow that order.
    const late = session.addRow({ operation_id: 1, workplace_id: 5, start: 40, end: 45 });
    const early = session.addRow({ operation_id: 2, workplace_id: 5, start: 12, end: 15 });
    session.updateRow('m11', { comment: 'y' });
    const middle = session.addRow({ operation_id: 1, workplace_id: 5, start: 31, end: 33 });
    const lateStamp = session.addStamp({ type: 'note', time: 9, comment: 'b', employee_id: null });
    const earlyStamp = session.addStamp({ type: 'product', time: 2, comment: '', employee_id: null });
    const { payload, sent } = session.prepareSave('order');
    expect(sent.rows).toEqual([early.key, middle.key, late.key]);
    expect(payload.video_markups.filter((m) => (m.id ?? 0) < 0).map((m) => m.start_time)).toEqual(sent.rows.map((key) => session.row(key)!.start));
    expect(sent.stamps).toEqual([earlyStamp.key, lateStamp.key]);
    expect(payload.video_stamps.filter((s) => (s.id ?? 0) < 0).map((s) => s.time)).toEqual([2, 9]);
    // The server numbers the new rows in the order sent (and rounds times): each takes the key sent in its place.
    const row = (id: number, start: number, end: number, operation: number) => ({
      id,
      operation_id: operation,
      workplace_id: 5,
      employee_id: null,
      start_time: start,
      end_time: end,
      comment: null,
      source: 'manual' as const,
      author_name: 'М',
    });
    const accepted = session.acceptChanges(
      {
        video_markups: [row(50, 12.001, 15, 2), { ...row(11, 20, 30, 2), employee_id: 7, comment: 'y' }, row(51, 31.001, 33, 1), row(52, 40.001, 45, 1)],
        video_stamps: [
          { id: 60, type: 'product', time: 2, comment: '', employee_id: null, author_name: null },
          { id: 61, type: 'note', time: 9, comment: 'b', employee_id: null, author_name: null },
        ],
        deleted_markup_ids: [],
        deleted_stamp_ids: [],
        base_version: 3,
        version: 4,
        complete: false,
      },
      sent,
    );
    expect(accepted).toBe(true);
    expect([early, middle, late].map((r) => session.row(r.key)?.id)).toEqual([50, 51, 52]);
    expect(session.rows.map((r) => r.id)).toEqual([10, 50, 11, 51, 52]);
    expect(session.stamps.map((s) => [s.key, s.id])).toEqual([
      [earlyStamp.key, 60],
      ['s3', 3],
      [lateStamp.key, 61],
    ]);
    expect(session.dirty).toBe(false);
  });

  it('refuses changes on another version than its own, and takes a complete answer whole', () => {
    const session = new MarkupSession(reply);
    const changes = { video_markups: [], video_stamps: [], deleted_markup_ids: [10], deleted_stamp_ids: [], base_version: 2, version: 3, complete: false };
    expect(session.acceptChanges(changes)).toBe(false);
    expect(session.rows).toHaveLength(2);
    expect(session.acceptChanges({ ...reply, version: 5, deleted_markup_ids: [], deleted_stamp_ids: [], base_version: 5, complete: true })).toBe(true);
    expect(session.version).toBe(5);
  });

  it('tells the timeline the time a change touched, and everything after a load', () => {
    const session = new MarkupSession(reply);
    const loaded = session.revision;
    expect(session.rowsChangedSince(loaded - 1)).toBe('all');
    expect(session.rowsChangedSince(loaded)).toBeNull();
    session.updateRow('m11', { end: 35 });
    session.select('m11');
    expect(session.rowsChangedSince(loaded)).toEqual({ from: 20, to: 35 });
    session.addRow({ operation_id: 1, workplace_id: 6, start: 100, end: 101 });
    expect(session.rowsChangedSince(loaded)).toEqual({ from: 20, to: 101 });
    expect(session.laneKeys()).toEqual(['5:7', '6:null']);
    expect(session.indexOf('m11')).toBe(1);
  });

  it('finds the unsaved state from the changed keys alone, and forgets keys undone back to the saved state', () => {
    const session = new MarkupSession(reply);
    session.updateRow('m10', { comment: 'a' });
    expect(session.dirty).toBe(true);
    session.updateRow('m10', { comment: '' });
    expect(session.dirty).toBe(false);
    session.removeStamp('s3');
    expect(session.dirty).toBe(true);
    session.undo();
    expect(session.dirty).toBe(false);
  });

  it('restores a draft as one undoable step', () => {
    const session = new MarkupSession(reply);
    session.addRow({ operation_id: 2, workplace_id: 5, start: 50, end: 60 });
    const draft = session.toDraft();
    const fresh = new MarkupSession(reply);
    fresh.restoreDraft(draft);
    expect(fresh.rows.map((r) => r.start)).toEqual([0, 20, 50]);
    fresh.undo();
    expect(fresh.rows).toHaveLength(2);
  });

  it('keeps a draft of the changes alone and rebuilds the same unsaved state from it', () => {
    const session = new MarkupSession(reply);
    const added = session.addRow({ operation_id: 2, workplace_id: 5, start: 50, end: 60 });
    session.updateRow('m11', { comment: 'y' });
    session.removeRow('m10');
    session.addStamp({ type: 'note', time: 7, comment: 'н', employee_id: null });
    session.removeStamp('s3');
    // A change undone is not in it: the draft holds what a save would send, not every key pressed.
    const undone = session.addRow({ operation_id: 1, workplace_id: 5, start: 70, end: 80 });
    session.undo();
    const draft = session.toChangesDraft();
    expect(draft.partial).toBe(true);
    expect(draft.rows.map((r) => [r.key, r.id]).sort()).toEqual(
      [
        [added.key, -1],
        ['m11', 11],
      ].sort(),
    );
    expect(draft.rows.some((r) => r.key === undone.key)).toBe(false);
    expect(draft.deletedRowIds).toEqual([10]);
    expect(draft.stamps.map((s) => s.time)).toEqual([7]);
    expect(draft.deletedStampIds).toEqual([3]);
    // As IndexedDB keeps it (a structured copy), laid over the same saved version on another page.
    const fresh = new MarkupSession(reply);
    fresh.restoreDraft(structuredClone(draft));
    expect(fresh.rows.map((r) => [r.id, r.start, r.comment])).toEqual(session.rows.map((r) => [r.id, r.start, r.comment]));
    expect(fresh.stamps.map((s) => [s.id, s.time])).toEqual([[-1, 7]]);
    expect(fresh.dirty).toBe(true);
    const { client_save_id: _a, ...sent } = fresh.buildSavePayload('a');
    const { client_save_id: _b, ...expected } = session.buildSavePayload('b');
    expect(sent).toEqual(expected);
    // Over a newer version (a conflict), the rows it removed are removed there too.
    const rebased = new MarkupSession(reply);
    rebased.rebase({ ...reply, version: 4 }, structuredClone(draft));
    expect(rebased.rows.map((r) => r.id)).toEqual([11, -1]);
    expect(rebased.row('m11')?.comment).toBe('y');
  });

  it('has an empty draft of changes once everything is saved', () => {
    const session = new MarkupSession(reply);
    session.updateRow('m11', { comment: 'y' });
    session.loadFromServer({ ...reply, version: 4, video_markups: reply.video_markups.map((m) => (m.id === 11 ? { ...m, comment: 'y' } : m)) });
    expect(session.toChangesDraft()).toMatchObject({ version: 4, rows: [], stamps: [], deletedRowIds: [], deletedStampIds: [] });
  });
});

describe('keyboard coding', () => {
  const lane = { workplace_id: 5, employee_id: 7 };
  it('chains segments: the next operation key ends the current one and starts the next', () => {
    const session = new MarkupSession();
    pressOperationKey(session, 1, 2, lane);
    pressOperationKey(session, 2, 5.5, lane);
    pressOperationKey(session, 3, 9, lane);
    endCoding(session, 12);
    expect(session.rows.map((r) => [r.operation_id, r.start, r.end])).toEqual([
      [1, 2, 5.5],
      [2, 5.5, 9],
      [3, 9, 12],
    ]);
    expect(session.codingKey).toBeNull();
    expect(invalidRows(session.rows)).toEqual([]);
  });
  it('the same key again just ends the segment; undo takes back one key press', () => {
    const session = new MarkupSession();
    pressOperationKey(session, 1, 2, lane);
    pressOperationKey(session, 1, 4, lane);
    expect(session.rows.map((r) => [r.start, r.end])).toEqual([[2, 4]]);
    session.undo();
    expect(session.rows[0]!.end).toBe(2);
  });
});

describe('navigation', () => {
  const rows = [
    { key: 'a', id: 1, operation_id: 1, workplace_id: 1, employee_id: null, start: 0, end: 10, comment: '' },
    { key: 'b', id: 2, operation_id: 1, workplace_id: 1, employee_id: null, start: 15, end: 30, comment: '' },
  ] satisfies MarkupRow[];
  it('finds the gaps and the next gap after a time', async () => {
    expect(await gaps(rows, 40)).toEqual([
      [10, 15],
      [30, 40],
    ]);
    // Overlapping rows count once; rows past the end are clipped (core-wasm's findGaps).
    expect(
      await gaps(
        [
          { ...rows[0], start: 0, end: 12 },
          { ...rows[0], key: 'c', start: 5, end: 20 },
          { ...rows[1], start: 35, end: 60 },
        ],
        40,
      ),
    ).toEqual([[20, 35]]);
    expect(await nextGapStart(rows, 0, 40)).toBe(10);
    expect(await nextGapStart(rows, 12, 40)).toBe(30);
    expect(await nextGapStart(rows, 35, 40)).toBeNull();
  });
  it('jumps between segments', () => {
    expect(nextSegment(rows, 0)?.key).toBe('b');
    // Inside a segment, "previous" goes to its own start first, as media players do.
    expect(previousSegment(rows, 20)?.key).toBe('b');
    expect(previousSegment(rows, 15)?.key).toBe('a');
    expect(previousSegment(rows, 0)).toBeNull();
  });
});

describe('time budget and agreement', () => {
  const row = (op: number, start: number, end: number): MarkupRow => ({
    key: `${op}-${start}`,
    id: 1,
    operation_id: op,
    workplace_id: 1,
    employee_id: null,
    start,
    end,
    comment: '',
  });
  it('sums per operation with mean, sample sd and share of the video', () => {
    const [first, second] = timeBudget([row(1, 0, 10), row(1, 10, 30), row(2, 30, 35)], 50);
    expect(first).toMatchObject({ operationId: 1, occurrences: 2, totalSeconds: 30, meanSeconds: 15, sharePercent: 60 });
    expect(first!.sdSeconds).toBeCloseTo(Math.sqrt(50), 10);
    expect(second).toMatchObject({ operationId: 2, occurrences: 1, sdSeconds: 0 });
    // A segment running past the end of the file counts only up to it.
    expect(timeBudget([row(3, 40, 70)], 50)[0]).toMatchObject({ totalSeconds: 10, sharePercent: 20 });
  });
  it('gives kappa 1 for identical markup and lists the slots where two assessors differ', () => {
    const a = [row(1, 0, 10), row(2, 10, 20)];
    expect(agreement(a, a, 20).kappa).toBe(1);
    const b = [row(1, 0, 12), row(2, 12, 20)];
    const result = agreement(a, b, 20);
    expect(result.observedAgreement).toBeCloseTo(18 / 20, 10);
    // pe = 0.5*0.6 + 0.5*0.4 = 0.5 → kappa = (0.9 - 0.5) / 0.5
    expect(result.kappa).toBeCloseTo(0.8, 10);
    expect(result.disagreements).toEqual([{ start: 10, end: 12, a: 2, b: 1 }]);
  });
});

describe('rebase after a conflict', () => {
  it('lays added, edited and deleted rows over the newer server version', () => {
    const session = new MarkupSession(reply);
    session.addRow({ operation_id: 3, workplace_id: 5, start: 40, end: 45 });
    session.updateRow('m11', { comment: 'мой' });
    session.removeRow('m10');
    // Meanwhile someone else added row 12 and saved (version 4).
    session.rebase({
      version: 4,
      video_markups: [
        ...reply.video_markups,
        { id: 12, operation_id: 2, workplace_id: 5, employee_id: 7, start_time: 50, end_time: 55, comment: null, source: 'manual', author_name: 'Д' },
      ],
      video_stamps: reply.video_stamps,
    });
    expect(session.version).toBe(4);
    expect(session.rows.map((r) => [r.id, r.start, r.comment])).toEqual([
      [11, 20, 'мой'],
      [-1, 40, ''],
      [12, 50, ''],
    ]);
    const payload = session.buildSavePayload('x');
    expect(payload.operation_markups_to_delete).toEqual([10]);
    expect(payload.base_version).toBe(4);
  });
});

describe('fill gaps as one undoable step', () => {
  it('undo removes the rows the server added, and the next save deletes them', () => {
    const session = new MarkupSession(reply);
    const before = new Set(session.rows.map((r) => r.key));
    session.acceptSaved({
      ...reply,
      version: 4,
      video_markups: [
        ...reply.video_markups,
        { id: 13, operation_id: 9, workplace_id: 5, employee_id: 7, start_time: 10, end_time: 20, comment: null, source: 'fill_gaps', author_name: 'М' },
      ],
    });
    session.recordAdded(
      'Заполнить пропуски',
      session.rows.map((r) => r.key).filter((key) => !before.has(key)),
    );
    expect(session.rows).toHaveLength(3);
    session.undo();
    expect(session.rows.map((r) => r.id)).toEqual([10, 11]);
    expect(session.buildSavePayload('x').operation_markups_to_delete).toEqual([13]);
  });
});

describe('sorted rows under many edits', () => {
  it('stays sorted by start exactly as a full sort would, through adds, moves, removes and undo', () => {
    const session = new MarkupSession(reply);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const keys: string[] = ['m10', 'm11'];
    for (let i = 0; i < 400; i++) {
      const roll = random();
      if (roll < 0.5 || keys.length < 3) {
        const start = Math.round(random() * 1000) / 10;
        keys.push(session.addRow({ operation_id: 1, workplace_id: 5, start, end: start + 1 }).key);
      } else if (roll < 0.8) {
        const key = keys[Math.floor(random() * keys.length)]!;
        const start = Math.round(random() * 1000) / 10;
        session.updateRow(key, { start, end: start + 2 });
      } else if (roll < 0.95) {
        const key = keys.splice(Math.floor(random() * keys.length), 1)[0]!;
        session.removeRow(key);
      } else {
        session.undo();
      }
      const expected = [...session.rows].sort((a, b) => a.start - b.start || a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      expect(session.rows.map((r) => r.key)).toEqual(expected.map((r) => r.key));
    }
  });
});

describe('actions', () => {
  it('render the command bar in order, with the commands that have no shortcut', () => {
    expect(toolbarActions().map((a) => a.label)).toEqual([
      'Отмена',
      'Заполнить пропуски',
      'Настроить модель',
      'Отметить стенды',
      'Скачать TSV',
      'Сохранить',
      'Завершить',
    ]);
    expect(shortcutActions().some((a) => a.id === 'finish' || a.id === 'fillGaps')).toBe(false);
    expect(shortcutActions().find((a) => a.id === 'save')?.keys).toBe('Ctrl + S');
  });

  it('run from their keys: Enter ends the segment being coded, Ctrl+S saves', () => {
    const calls: string[] = [];
    const ctx = new Proxy({}, { get: (_, name) => (name === 'readOnly' ? false : () => calls.push(String(name))) }) as unknown as ActionContext;
    const key = (init: KeyboardEventInit) =>
      ({
        ...init,
        key: init.key!,
        ctrlKey: !!init.ctrlKey,
        metaKey: false,
        altKey: false,
        shiftKey: false,
        target: null,
        preventDefault() {},
      }) as unknown as KeyboardEvent;
    expect(runShortcut(key({ key: 'Enter' }), ctx)).toBe(true);
    expect(runShortcut(key({ key: 's', ctrlKey: true }), ctx)).toBe(true);
    expect(calls).toEqual(['endCoding', 'save']);
  });

  it('offer a read-only screen (no markup.write) only what looks: no save, no edit keys', () => {
    expect(toolbarActions(true).map((a) => a.label)).toEqual(['Отмена', 'Настроить модель', 'Отметить стенды', 'Скачать TSV']);
    expect(shortcutActions(true).some((a) => a.id === 'save' || a.id === 'delete' || a.id === 'undo')).toBe(false);
    const calls: string[] = [];
    const ctx = new Proxy({}, { get: (_, name) => (name === 'readOnly' ? true : () => calls.push(String(name))) }) as unknown as ActionContext;
    const key = (k: string, ctrlKey = false) =>
      ({ key: k, ctrlKey, metaKey: false, altKey: false, shiftKey: false, target: null, preventDefault() {} }) as unknown as KeyboardEvent;
    expect(runShortcut(key('s', true), ctx)).toBe(false);
    expect(runShortcut(key('Delete'), ctx)).toBe(false);
    expect(runShortcut(key('?'), ctx)).toBe(true);
    expect(calls).toEqual(['toggleHelp']);
  });
});

describe('an operation key before «Разметка для» is chosen', () => {
  const none = { workplace_id: null, employee_id: null };

  it('is refused with a message: it would make a row without a workplace', () => {
    const session = new MarkupSession({ version: 1, video_markups: [], video_stamps: [] });
    expect(laneMissing(session, none)).toBe(true);
    expect(CHOOSE_LANE_FIRST).toMatch(/^Сначала выберите, для кого разметка/);
    expect(session.rows).toHaveLength(0);
    // Chosen: the key codes.
    expect(laneMissing(session, { workplace_id: 5, employee_id: null })).toBe(false);
  });

  it('codes on in the lane of the segment being coded or of the selected row', () => {
    const session = new MarkupSession(reply);
    pressOperationKey(session, 1, 40, { workplace_id: 5, employee_id: 7 });
    expect(laneMissing(session, none)).toBe(false);
    endCoding(session, 45);
    session.codingKey = null;
    session.select('m10');
    // The selected row's lane is what defaultLane gives (useCodingInput): here the chosen one is empty.
    expect(laneMissing(session, { workplace_id: session.row('m10')!.workplace_id, employee_id: 7 })).toBe(false);
  });
});
