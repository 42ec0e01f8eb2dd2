import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ColumnTable, exportOf, type Column } from './ColumnTable';
import { VIRTUAL_FROM } from './constants';

interface Row {
  name: string;
  seconds: number;
  values: number[];
}

const GROUP = { title: 'Замеры, с', testId: 'group-header' };
const columns: Column<Row>[] = [
  { title: 'Операция', show: (r) => r.name, value: (r) => r.name },
  { title: 'Длительность, с', value: (r) => r.seconds },
  { title: 'Длительность', numeric: true, testId: 'len', show: (r) => `${r.seconds} с`, value: (r) => `${r.seconds} с` },
  { title: '1', group: GROUP, numeric: true, show: (r) => r.values[0], value: (r) => r.values[0] ?? null },
  { title: '2', group: GROUP, numeric: true, value: (r) => r.values[1] ?? null },
  { title: '…', group: GROUP, show: () => '…' },
];
const rows: Row[] = [
  { name: 'Сборка', seconds: 30, values: [10, 20] },
  { name: 'Упаковка', seconds: 12, values: [12] },
];

describe('a report table from one column description', () => {
  it('downloads the columns that have a value, under the same titles, total rows last', () => {
    const table = exportOf('Таблица', columns, rows, [{ name: 'Итого', seconds: 42, values: [] }]);
    expect(table.title).toBe('Таблица');
    expect(table.columns).toEqual(['Операция', 'Длительность, с', 'Длительность', 'Замеры, с — 1', 'Замеры, с — 2']);
    expect(table.rows).toEqual([
      ['Сборка', 30, '30 с', 10, 20],
      ['Упаковка', 12, '12 с', 12, null],
      ['Итого', 42, '42 с', null, null],
    ]);
  });

  it('shows the columns that have a cell, a group header over its columns, test ids by prefix', () => {
    const html = renderToStaticMarkup(
      <ColumnTable
        title="Таблица"
        fileBase="отчёт"
        print
        columns={columns}
        rows={rows}
        rowKey={(r) => r.name}
        testPrefix="t"
        total={[{ name: 'Итого', seconds: 42, values: [] }]}
      />,
    );
    const head = html.slice(html.indexOf('<thead>'), html.indexOf('</thead>'));
    expect(head).toContain('<th rowSpan="2">Операция</th><th rowSpan="2">Длительность</th><th colSpan="2" data-testid="group-header">Замеры, с</th>');
    expect(head).toContain('<th>1</th><th>…</th>');
    expect(head).not.toContain('Длительность, с');
    expect(html).toContain('<tr data-testid="t-row"><td>Сборка</td><td class="num" data-testid="t-len">30 с</td><td class="num">10</td><td>…</td></tr>');
    expect(html).toContain('<tfoot><tr data-testid="t-total"><td>Итого</td><td class="num" data-testid="t-total-len">42 с</td>');
  });

  it('says so when there are no rows', () => {
    const html = renderToStaticMarkup(
      <ColumnTable title="Таблица" fileBase="отчёт" print columns={columns} rows={[]} rowKey={(r) => r.name} empty="Строк нет" />,
    );
    expect(html).toContain('<td colSpan="4" class="muted">Строк нет</td>');
  });

  it('a long `virtual` table builds only its first screen, the print layout every row', () => {
    const many: Row[] = Array.from({ length: 500 }, (_, i) => ({ name: `Операция ${i + 1}`, seconds: i, values: [] }));
    const table = (print: boolean) =>
      renderToStaticMarkup(
        <ColumnTable title="Таблица" fileBase="отчёт" print={print} columns={columns} rows={many} rowKey={(r) => r.name} testPrefix="t" virtual />,
      );
    const rowsOf = (html: string) => html.match(/data-testid="t-row"/g)?.length ?? 0;
    const screen = table(false);
    expect(rowsOf(screen)).toBeGreaterThan(0);
    expect(rowsOf(screen)).toBeLessThan(VIRTUAL_FROM);
    expect(screen).toContain('<td>Операция 1</td>');
    expect(screen).not.toContain('<td>Операция 500</td>');
    expect(screen).toContain('tabindex="0" role="region" aria-label="Таблица"');
    expect(rowsOf(table(true))).toBe(many.length);
    // Short tables stay whole.
    const short = renderToStaticMarkup(
      <ColumnTable
        title="Таблица"
        fileBase="отчёт"
        print={false}
        columns={columns}
        rows={many.slice(0, VIRTUAL_FROM)}
        rowKey={(r) => r.name}
        testPrefix="t"
        virtual
      />,
    );
    expect(rowsOf(short)).toBe(VIRTUAL_FROM);
  });
});
