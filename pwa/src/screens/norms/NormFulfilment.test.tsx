import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { NormFulfilment } from '../../api/types';
import { fulfilmentTable, NormFulfilmentTable } from './NormFulfilment';

type Row = NormFulfilment['rows'][number];
type Total = NormFulfilment['total'];

const row = (over: Partial<Row>): Row => ({
  employee_id: 1,
  employee_name: 'Иванов',
  date: '2026-11-18',
  from_time: '2026-11-17T21:00:00.000Z',
  to_time: '2026-11-18T21:00:00.000Z',
  norm_id: 7,
  norm_version: 2,
  norm_time_minutes: 10,
  units: 0,
  output_source: 'none',
  shift_minutes: 480,
  idle_minutes: 20,
  actual_minutes_per_unit: null,
  fulfilment_percent: null,
  ...over,
});
const total = (over: Partial<Total>): Total => ({
  employee_id: 1,
  employee_name: 'Иванов',
  days: 2,
  days_with_output: 1,
  days_counted: 1,
  units: 46,
  units_counted: 46,
  norm_minutes: 460,
  working_minutes: 460,
  actual_minutes_per_unit: 10,
  fulfilment_percent: 100,
  ...over,
});

/** Two shift-days of Иванов (one with 46 units entered by hand, one without output) and one of Петров without output. */
const data: NormFulfilment = {
  norm: { id: 7, version: 2, effective_from: '2026-11-16' },
  far_threshold_percent: 30,
  from_time: '2026-11-15T21:00:00.000Z',
  to_time: '2026-11-22T21:00:00.000Z',
  rows: [
    row({ date: '2026-11-17', units: 46, output_source: 'manual', actual_minutes_per_unit: 10, fulfilment_percent: 100 }),
    row({}),
    row({ employee_id: 2, employee_name: 'Петров' }),
  ],
  totals: [
    total({}),
    total({
      employee_id: 2,
      employee_name: 'Петров',
      days: 1,
      days_with_output: 0,
      days_counted: 0,
      units: 0,
      units_counted: 0,
      norm_minutes: 0,
      working_minutes: 0,
      actual_minutes_per_unit: null,
      fulfilment_percent: null,
    }),
  ],
  total: total({ employee_id: null, employee_name: null, days: 3 }),
  far_cycles: [],
};

const cells = (html: string, testId: string) => [...html.matchAll(new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`, 'g'))].map((m) => m[1]);

describe('norm fulfilment block (issue 42)', () => {
  it('a shift-day without output reads «нет выпуска», never 0 %; the window totals follow the rows', () => {
    const html = renderToStaticMarkup(<NormFulfilmentTable data={data} fileBase="Выполнение норм" />);
    expect(cells(html, 'fulfilment-percent')).toEqual(['100\u00a0%', 'нет выпуска', 'нет выпуска']);
    expect(html).not.toMatch(/>0\u00a0%</);
    expect(cells(html, 'fulfilment-units')).toEqual(['46', '0', '0']);
    expect(html).toContain('введён вручную');
    // Each employee's total, then the one for all.
    expect(cells(html, 'fulfilment-total-percent')).toEqual(['100\u00a0%', 'нет выпуска', '100\u00a0%']);
    expect(cells(html, 'fulfilment-total-units')).toEqual(['46', '0', '46']);
    expect(html).toContain('Все сотрудники: итого');
    // The PDF takes the table with its totals (data-pdf marks).
    expect(html).toContain('data-pdf="table"');
    expect(html.indexOf('<tfoot>')).toBeGreaterThan(html.indexOf('<tbody>'));
  });

  it('the XLSX/CSV table carries the same rows and totals: percents as numbers, «нет выпуска» as text', () => {
    const table = fulfilmentTable(data);
    expect(table.columns.at(-1)).toBe('Выполнение нормы, %');
    expect(table.rows.map((r) => r.at(-1))).toEqual([100, 'нет выпуска', 'нет выпуска', 100, 'нет выпуска', 100]);
    expect(table.rows.map((r) => r[4])).toEqual([46, 0, 0, 46, 0, 46]);
    expect(table.rows.map((r) => r[0])).toEqual(['Иванов', 'Иванов', 'Петров', 'Иванов: итого', 'Петров: итого', 'Все сотрудники: итого']);
  });

  it('one employee (the statement) has his total only', () => {
    const one = { ...data, rows: data.rows.slice(0, 2), totals: data.totals.slice(0, 1) };
    const html = renderToStaticMarkup(<NormFulfilmentTable data={one} fileBase="Выполнение норм" />);
    expect(cells(html, 'fulfilment-total-percent')).toEqual(['100\u00a0%']);
    expect(html).not.toContain('Все сотрудники');
  });
});
