import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ExportTable } from '../../export/table';
import { ExportButtons } from './ExportButtons';
import './reports.css';

/**
 * Prepares a table for a phone (reports.css): with one header row, each cell gets its column's
 * title (data-label) so that a row can be shown as a card, and the name column is the card's
 * title; with more header rows (the observation sheets) the first column is pinned instead.
 */
export function labelForCards(table: HTMLTableElement): void {
  const headRows = table.tHead?.rows ?? [];
  if (headRows.length !== 1) {
    table.dataset.layout = 'pinned';
    return;
  }
  const titles: string[] = [];
  for (const th of Array.from(headRows[0]!.cells)) for (let k = 0; k < th.colSpan; k++) titles.push(th.textContent?.trim() ?? '');
  const titleColumn = titles[0] === '№' && titles.length > 1 ? 1 : 0;
  for (const section of [...Array.from(table.tBodies), ...(table.tFoot ? [table.tFoot] : [])]) {
    for (const row of Array.from(section.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        // A cell spanning the whole row (an empty-table message) stays unlabelled.
        if (cell.colSpan === 1 && titles[column]) cell.dataset.label = titles[column];
        cell.classList.toggle('card-title', column === titleColumn && cell.colSpan === 1);
        column += cell.colSpan;
      }
    }
  }
  table.dataset.layout = 'cards';
}

export interface ReportTableProps {
  title: string;
  /** thead, tbody and tfoot rows. */
  head: ReactNode;
  body: ReactNode;
  foot?: ReactNode;
  exportTable: () => ExportTable;
  fileBase: string;
  collapsible?: boolean;
  collapsed?: boolean;
  /** Print layout: always open, no buttons. */
  print?: boolean;
  testId?: string;
  className?: string;
  /**
   * A virtualised table's scroll box (ColumnTable): the table scrolls in a box of its own, which the
   * keyboard reaches (Tab, then the arrows and Page Up/Down) and which is named by the title.
   */
  scroller?: RefObject<HTMLDivElement | null>;
}

/** A titled report table with XLSX/CSV downloads; optionally collapsible (block report). */
export function ReportTable({
  title,
  head,
  body,
  foot,
  exportTable,
  fileBase,
  collapsible = false,
  collapsed = false,
  print = false,
  testId,
  className,
  scroller,
}: ReportTableProps) {
  const [open, setOpen] = useState(!collapsed);
  const shown = print || !collapsible || open;
  const table = useRef<HTMLTableElement>(null);
  // After every render: the rows may have changed.
  useLayoutEffect(() => {
    if (table.current && !print) labelForCards(table.current);
  });
  return (
    <section className="report-table" data-testid={testId}>
      <div className="report-table-head">
        <h2 data-pdf="heading">{title}</h2>
        {!print && (
          <span className="row-actions no-print">
            {collapsible && (
              <button type="button" className="button secondary small" aria-expanded={open} onClick={() => setOpen(!open)}>
                {open ? 'Свернуть' : 'Развернуть'}
              </button>
            )}
            <ExportButtons table={exportTable} fileBase={fileBase} />
          </span>
        )}
      </div>
      {shown && (
        <div
          ref={scroller}
          className={scroller ? 'table-scroll virtual-scroll' : 'table-scroll'}
          {...(scroller && { tabIndex: 0, role: 'region', 'aria-label': title, 'data-testid': testId && `${testId}-scroll` })}
        >
          <table ref={table} className={`data-table compact report-data ${scroller ? 'virtual-table' : ''} ${className ?? ''}`} data-pdf="table">
            <thead>{head}</thead>
            <tbody>{body}</tbody>
            {foot && <tfoot>{foot}</tfoot>}
          </table>
        </div>
      )}
    </section>
  );
}
