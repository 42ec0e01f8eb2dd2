import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { ExportTable, ExportValue } from '../../export/table';
import { VIRTUAL_FROM } from './constants';
import { ReportTable, type ReportTableProps } from './ReportTable';

/**
 * One column of a report table, the one description that the screen, the PDF (built from the
 * screen's print layout) and the XLSX/CSV downloads share: a column is written once, with one title.
 */
export interface Column<Row> {
  /** The column's title on the screen, in the PDF and in the download. */
  title: string;
  /**
   * A header over neighbouring columns (the observation sheet's «Замеры, с»): on the screen a second
   * header row, in the download the title «group — title».
   */
  group?: { title: string; testId?: string };
  /** The cell on the screen and in the PDF; without it the column is the download's only (exact seconds). */
  show?: (row: Row, index: number) => ReactNode;
  /** The value in the XLSX and CSV; without it the column is the screen's only. */
  value?: (row: Row, index: number) => ExportValue;
  /** A number: right-aligned. */
  numeric?: boolean;
  /** Cell test id, after the table's prefix: `t1-percent`, and `t1-total-percent` in the total row. */
  testId?: string;
  /** More of the cell's attributes (a measurement's status and tooltip). */
  cell?: (row: Row, index: number) => { className?: string; title?: string; status?: string };
  /** The column's width in a virtualised table (fixed layout: the columns must not move as rows come and go); the rest share what is left. */
  width?: string;
}

/** Estimated row heights, px, before a row is measured: a table row at a computer's width, a card on a phone (reports.css, max-width 640px). */
const ROW_HEIGHT = 37;
const CARD_HEIGHT = 84;
/** Rows built beyond the visible ones on either side. */
const OVERSCAN = 8;
/** The box's height before it is measured, px (reports.css: `.virtual-scroll`). */
const BOX_HEIGHT = 640;

/** The download of a table: its title, the columns that have a value, the rows and then the total rows. */
export function exportOf<Row>(title: string, columns: Column<Row>[], rows: Row[], total: Row[] = []): ExportTable {
  const exported = columns.filter((c) => c.value);
  return {
    title,
    columns: exported.map((c) => (c.group ? `${c.group.title} — ${c.title}` : c.title)),
    rows: [...rows, ...total].map((row, i) => exported.map((c) => c.value!(row, i))),
  };
}

interface ColumnTableProps<Row> extends Pick<ReportTableProps, 'title' | 'fileBase' | 'print' | 'testId' | 'className' | 'collapsible' | 'collapsed'> {
  columns: Column<Row>[];
  rows: Row[];
  /** Rows after the body, in the table's foot (the total row). */
  total?: Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** Prefix of the test ids: rows `${prefix}-row`, total `${prefix}-total`, cells `${prefix}-${column.testId}`. */
  testPrefix?: string;
  /** What the body says when there are no rows. */
  empty?: string;
  /** A table that grows with the window: past VIRTUAL_FROM rows it scrolls in its own box and builds only the rows in view. */
  virtual?: boolean;
}

/** True between the browser's `beforeprint` and `afterprint`: printing the screen shows every row. */
function usePrinting(enabled: boolean): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    // The print is laid out right after `beforeprint`: the rows must be in the page by then.
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, [enabled]);
  return printing;
}

/** A report table drawn from its column descriptions, with the XLSX/CSV downloads of the same columns. */
export function ColumnTable<Row>({ columns, rows, total = [], rowKey, testPrefix, empty, virtual = false, ...table }: ColumnTableProps<Row>) {
  const long = virtual && !table.print && rows.length > VIRTUAL_FROM;
  const printing = usePrinting(long);
  const windowed = long && !printing;
  const scroller = useRef<HTMLDivElement>(null);
  const [rowHeight] = useState(() =>
    typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches ? CARD_HEIGHT : ROW_HEIGHT,
  );
  const virtualizer = useVirtualizer({
    count: windowed ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    initialRect: { width: 0, height: BOX_HEIGHT },
  });
  const shown = columns.filter((c) => c.show);
  const grouped = shown.some((c) => c.group);
  const id = (suffix: string | undefined, prefix = testPrefix) => (prefix && suffix ? `${prefix}-${suffix}` : undefined);
  const line = (row: Row, index: number, prefix: string | undefined) =>
    shown.map((c, k) => {
      const extra = c.cell?.(row, index);
      const className = [c.numeric ? 'num' : '', extra?.className ?? ''].join(' ').trim();
      return (
        <td key={k} className={className || undefined} title={extra?.title} data-status={extra?.status} data-testid={id(c.testId, prefix)}>
          {c.show!(row, index)}
        </td>
      );
    });
  const head = grouped ? (
    <>
      <tr>
        {shown.map((c, k) => {
          if (!c.group)
            return (
              <th key={k} rowSpan={2} style={windowed && c.width ? { width: c.width } : undefined}>
                {c.title}
              </th>
            );
          if (shown[k - 1]?.group?.title === c.group.title) return null;
          const span = shown.filter((o) => o.group?.title === c.group!.title).length;
          return (
            <th key={k} colSpan={span} data-testid={c.group.testId}>
              {c.group.title}
            </th>
          );
        })}
      </tr>
      <tr>{shown.map((c, k) => c.group && <th key={k}>{c.title}</th>)}</tr>
    </>
  ) : (
    <tr>
      {shown.map((c, k) => (
        <th key={k} style={windowed && c.width ? { width: c.width } : undefined}>
          {c.title}
        </th>
      ))}
    </tr>
  );
  const built = virtualizer.getVirtualItems();
  const body = windowed ? (
    <>
      {built.length > 0 && <tr className="virtual-spacer" style={{ height: built[0]!.start }} aria-hidden />}
      {built.map((v) => (
        <tr key={rowKey(rows[v.index]!, v.index)} ref={virtualizer.measureElement} data-index={v.index} data-testid={id('row')}>
          {line(rows[v.index]!, v.index, testPrefix)}
        </tr>
      ))}
      {built.length > 0 && <tr className="virtual-spacer" style={{ height: virtualizer.getTotalSize() - built[built.length - 1]!.end }} aria-hidden />}
    </>
  ) : rows.length === 0 && empty ? (
    <tr>
      <td colSpan={shown.length} className="muted">
        {empty}
      </td>
    </tr>
  ) : (
    rows.map((row, i) => (
      <tr key={rowKey(row, i)} data-testid={id('row')}>
        {line(row, i, testPrefix)}
      </tr>
    ))
  );
  const foot =
    total.length > 0
      ? total.map((row, i) => (
          <tr key={i} data-testid={id('total')}>
            {line(row, rows.length + i, id('total'))}
          </tr>
        ))
      : undefined;
  return (
    <ReportTable
      {...table}
      exportTable={() => exportOf(table.title, columns, rows, total)}
      head={head}
      body={body}
      foot={foot}
      scroller={windowed ? scroller : undefined}
    />
  );
}
