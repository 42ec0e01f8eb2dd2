import { describe, expect, it } from 'vitest';
import type { NormCard } from '../../api/types';
import { employeeRatings, manualRows, manualTimes, parseRu, ratingProblem, ratingRows, unitCandidates, type ManualRow } from './normsState';

const row = (minutes: string, note = ''): ManualRow => ({ operationId: 7, name: 'Упаковка', minutes, source: 'mtm', note });

describe('hand times of the norm card form', () => {
  it('a typed time becomes the API field, an empty one is no hand time', () => {
    expect(manualTimes([row('1,25', ' карта МТМ-1 '), { ...row(''), operationId: 8 }])).toEqual({
      value: [{ operation_id: 7, minutes: 1.25, source: 'mtm', note: 'карта МТМ-1' }],
      problem: null,
    });
  });

  it('a time that is not a positive number within the API bound, or a long note, is a Russian message', () => {
    expect(manualTimes([row('0')]).problem).toBe('Время «Упаковка»: число минут больше 0, дробная часть — через запятую');
    expect(manualTimes([row('1.2.3')]).problem).toBe('Время «Упаковка»: число минут больше 0, дробная часть — через запятую');
    expect(manualTimes([row('-2')]).problem).toContain('больше 0');
    expect(manualTimes([row('100000')]).problem).toBeNull();
    expect(manualTimes([row('100000,5')]).problem).toMatch(/^Время «Упаковка»: не больше 100\s000 мин$/);
    expect(manualTimes([row('2', 'x'.repeat(500))]).problem).toBeNull();
    expect(manualTimes([row('2', 'x'.repeat(501))]).problem).toBe('Примечание к «Упаковка»: не длиннее 500 символов');
  });
});

describe('ratings of the norm card form', () => {
  it('are bounded 50–200 % as the API bounds them; empty is the common rating', () => {
    const rows = [
      { employeeId: 1, name: 'Иванов', percent: '110,5' },
      { employeeId: 2, name: 'Петров', percent: '' },
    ];
    expect(employeeRatings(rows)).toEqual({ value: [{ employee_id: 1, rating_percent: 110.5 }], problem: null });
    expect(employeeRatings([{ employeeId: 1, name: 'Иванов', percent: '49' }]).problem).toBe('Оценка темпа «Иванов»: число от 50 до 200 %');
    expect(employeeRatings([{ employeeId: 1, name: 'Иванов', percent: '200,1' }]).problem).toBe('Оценка темпа «Иванов»: число от 50 до 200 %');
    expect(employeeRatings([{ employeeId: 1, name: 'Иванов', percent: 'быстро' }]).problem).toBe('Оценка темпа «Иванов»: число от 50 до 200 %');
    expect(ratingProblem(parseRu('50'), 'Оценка темпа')).toBeNull();
    expect(ratingProblem(parseRu('201'), 'Оценка темпа')).toBe('Оценка темпа: число от 50 до 200 %');
    const many = Array.from({ length: 201 }, (_, k) => ({ employeeId: k + 1, name: `С${k}`, percent: '100' }));
    expect(employeeRatings(many).problem).toBe('Оценка темпа — не больше чем для 200 сотрудников');
  });
});

describe('rows of the form from the card', () => {
  const card = {
    windows: [
      { employee_id: 3, employee_name: 'Иванов', from_time: '', to_time: '' },
      { employee_id: 3, employee_name: 'Иванов', from_time: '', to_time: '' },
      { employee_id: 4, employee_name: 'Петров', from_time: '', to_time: '' },
    ],
    params: {
      employee_ratings: [{ employee_id: 4, rating_percent: 95.5 }],
      manual_times: [{ operation_id: 8, minutes: 2.5, source: 'reference', note: 'ЕТКС' }],
    },
    card: {
      operations: [
        { operation_id: 6, name: 'Сборка', time_source: 'measured' },
        { operation_id: 7, name: 'Упаковка', time_source: 'none' },
        { operation_id: 8, name: 'Маркировка', time_source: 'manual' },
      ],
    },
  } as unknown as NormCard;

  it('each employee of the basis once, with his rating; each operation without measurements, with its hand time', () => {
    expect(ratingRows(card)).toEqual([
      { employeeId: 3, name: 'Иванов', percent: '' },
      { employeeId: 4, name: 'Петров', percent: '95,5' },
    ]);
    expect(manualRows(card)).toEqual([
      { operationId: 7, name: 'Упаковка', minutes: '', source: 'mtm', note: '' },
      { operationId: 8, name: 'Маркировка', minutes: '2,5', source: 'reference', note: 'ЕТКС' },
    ]);
  });

  it('only main and auxiliary operations can be added to a unit', () => {
    const op = (id: number, type: string) => ({ id, name: `оп${id}`, type, reference_point: '', machine_paced: false });
    expect(unitCandidates({ operations: [op(1, 'main'), op(2, 'aux'), op(3, 'idle'), op(4, 'pz')], operation_types: {} })).toEqual([
      { id: 1, name: 'оп1' },
      { id: 2, name: 'оп2' },
    ]);
  });
});
