import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../../api/client';
import { INCORRECT } from './rows';
import { PeriodEditSession, rowProblems, type Period } from './session';

const tz = 'Europe/Moscow';
const from = Date.parse('2026-11-16T06:00:00.000Z');
const to = Date.parse('2026-11-16T09:00:00.000Z');
const period: Period = {
  id: 3,
  from,
  to,
  timeZone: tz,
  query: { structure_id: 3, from_time: new Date(from).toISOString(), to_time: new Date(to).toISOString() },
};
const serverRow = (id: number, start: string, end: string) => ({
  id,
  operation_id: 5,
  workplace_id: 2,
  employee_id: null,
  start_time: start,
  end_time: end,
  comment: null,
  video_id: null,
});
const reply = {
  version: 'v1',
  operation_markups: [
    serverRow(1, '2026-11-16T06:00:00.000Z', '2026-11-16T06:01:00.000Z'),
    serverRow(2, '2026-11-16T07:00:00.000Z', '2026-11-16T07:05:00.000Z'),
  ],
};
const lists = { operations: [{ id: 5, name: 'Сварка' }], workplaces: [{ id: 2, name: 'Цех' }], employees: [{ id: 4, name: 'Иванов' }] };

function loaded() {
  const session = new PeriodEditSession();
  session.lists = lists;
  session.rowsLoaded(reply, tz);
  return session;
}

describe('the period editor’s session', () => {
  it('loads the rows newest first with nothing unsaved, and tells its subscribers', () => {
    const session = new PeriodEditSession();
    let heard = 0;
    const stop = session.subscribe(() => heard++);
    session.rowsLoaded(reply, tz);
    stop();
    expect(heard).toBe(1);
    expect(session.rows.map((r) => r.id)).toEqual([2, 1]);
    expect(session.version).toBe('v1');
    expect(session.unsaved).toBe(false);
    expect(session.rows.every((r) => !r.dirty)).toBe(true);
  });

  it('an edit marks the row and the screen unsaved; the other rows stay the same objects', () => {
    const session = loaded();
    const [first, second] = session.rows;
    session.update(first!.key, { comment: 'проверка' });
    expect(session.rows[0]).toMatchObject({ comment: 'проверка', dirty: true });
    expect(session.rows[1]).toBe(second);
    expect(session.unsaved).toBe(true);
  });

  it('removing a saved row lists its id for the save; a new row is added on top inside the period', () => {
    const session = loaded();
    session.remove(session.rows[0]!);
    expect(session.toDelete).toEqual([2]);
    expect(session.rows.map((r) => r.id)).toEqual([1]);
    session.add(period, Date.parse('2030-01-01T00:00:00.000Z'));
    expect(session.rows).toHaveLength(2);
    expect(session.rows[0]!.id).toBeUndefined();
    expect(session.rows[0]).toMatchObject({ startText: '16-11-2026 09:00:00', workplaceId: 2, employeeId: 4, dirty: true });
  });

  it('adds nothing before the lists are loaded', () => {
    const session = new PeriodEditSession();
    session.add(period);
    expect(session.rows).toEqual([]);
    expect(session.unsaved).toBe(false);
  });

  it('refuses to save before the rows are loaded, and a row that is wrong, naming its line', async () => {
    const early = new PeriodEditSession();
    await early.save(period);
    expect(early.banner).toBe('Разметка периода ещё не загружена — обновите страницу и повторите');
    const session = loaded();
    session.add(period, from);
    await session.save(period);
    expect(session.banner).toBe(`${INCORRECT}: строка 1 — не выбрана операция`);
    expect(session.busy).toBe(false);
    expect(rowProblems(session.rows, tz).get(session.rows[0]!.key)).toBe('не выбрана операция');
  });

  it('after a save the server’s rows keep their keys and nothing is unsaved', () => {
    const session = loaded();
    const keys = session.rows.map((r) => r.key);
    session.update(keys[0]!, { comment: 'x' });
    session.remove(session.rows[1]!);
    session.saved({ version: 'v2', operation_markups: [{ ...reply.operation_markups[1]!, comment: 'x' }] }, tz);
    expect(session.rows.map((r) => r.key)).toEqual([keys[0]]);
    expect(session.rows[0]).toMatchObject({ comment: 'x', dirty: false });
    expect(session.version).toBe('v2');
    expect(session.toDelete).toEqual([]);
    expect(session.unsaved).toBe(false);
  });

  it('a refused save shows the banner; only a conflict (409) offers to load the period again, which drops the edits', () => {
    const session = loaded();
    session.update(session.rows[0]!.key, { comment: 'x' });
    session.saveFailed(new ApiCallError(400, 'bad', 'нет'));
    expect(session.banner).toBe(INCORRECT);
    expect(session.stale).toBe(false);
    session.saveFailed(new ApiCallError(409, 'conflict', 'изменено'));
    expect(session.stale).toBe(true);
    expect(session.unsaved).toBe(true);
    session.rowsLoaded(reply, tz);
    expect(session).toMatchObject({ stale: false, banner: null, unsaved: false, toDelete: [] });
  });
});
