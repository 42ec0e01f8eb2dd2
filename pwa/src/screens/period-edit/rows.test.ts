import { describe, expect, it } from 'vitest';
import { newRow, newRowInstant, rowProblem, rowsFromServer, savePayload, sortedByName } from './rows';

const tz = 'Europe/Moscow';
const server = [
  {
    id: 1,
    operation_id: 5,
    workplace_id: 2,
    employee_id: null,
    start_time: '2026-11-16T05:00:00.000Z',
    end_time: '2026-11-16T05:01:00.000Z',
    comment: null,
    video_id: 9,
  },
  {
    id: 2,
    operation_id: 5,
    workplace_id: 2,
    employee_id: 4,
    start_time: '2026-11-16T06:00:00.000Z',
    end_time: '2026-11-16T06:00:30.000Z',
    comment: 'второй',
    video_id: null,
  },
];

describe('period editor rows (spec 01 "Operation markup editing", §4)', () => {
  it('lists rows newest first as local date-times', () => {
    const rows = rowsFromServer(server, tz);
    expect(rows.map((r) => [r.id, r.startText, r.endText])).toEqual([
      [2, '16-11-2026 09:00:00', '16-11-2026 09:00:30'],
      [1, '16-11-2026 08:00:00', '16-11-2026 08:01:00'],
    ]);
  });

  it('starts a new row in the edited period: now inside it, its start for a past or future one', () => {
    const from = Date.parse('2026-11-16T05:00:00Z');
    const to = Date.parse('2026-11-16T13:00:00Z');
    expect(newRowInstant(Date.parse('2026-11-16T07:00:00Z'), from, to)).toBe(Date.parse('2026-11-16T07:00:00Z'));
    expect(newRowInstant(Date.parse('2026-11-25T15:00:00Z'), from, to)).toBe(from);
    expect(newRowInstant(Date.parse('2026-11-01T15:00:00Z'), from, to)).toBe(from);
  });

  it('starts a new row at now, empty, prefilling a workplace or employee only when there is one', () => {
    const now = Date.parse('2026-11-16T07:00:00Z');
    const row = newRow(now, [{ id: 3 }], [{ id: 1 }, { id: 2 }], tz);
    expect(row).toMatchObject({
      operationId: 0,
      workplaceId: 3,
      employeeId: 0,
      comment: '',
      startText: '16-11-2026 10:00:00',
      endText: '16-11-2026 10:00:00',
      dirty: true,
    });
    expect(rowProblem(row, tz)).toBe('не выбрана операция');
    expect(rowProblem({ ...row, operationId: 5 }, tz)).toBe('начало должно быть раньше конца');
    expect(rowProblem({ ...row, operationId: 5, endText: '16-11-2026 10:05:00' }, tz)).toBeNull();
    expect(rowProblem({ ...row, operationId: 5, startText: '16/11/2026' }, tz)).toMatch(/начало/);
  });

  it('sends changed and new rows with ISO instants, the removed ids and the version', () => {
    const rows = rowsFromServer(server, tz);
    rows[1] = { ...rows[1]!, comment: 'исправлено', dirty: true };
    const payload = savePayload(rows, [7], tz, '2-abc');
    expect(payload).toEqual({
      operation_markups: [
        {
          id: 1,
          operation_id: 5,
          workplace_id: 2,
          employee_id: null,
          start_time: '2026-11-16T05:00:00.000Z',
          end_time: '2026-11-16T05:01:00.000Z',
          comment: 'исправлено',
        },
      ],
      operation_markups_to_delete: [7],
      base_version: '2-abc',
    });
  });

  it('sorts the operation dropdown alphabetically', () => {
    expect(sortedByName([{ name: 'Сборка' }, { name: 'Арматура' }, { name: 'Ёмкость' }]).map((o) => o.name)).toEqual(['Арматура', 'Ёмкость', 'Сборка']);
  });
});
