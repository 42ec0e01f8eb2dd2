import { useState, type ReactNode } from 'react';
import type { ExportTable } from '../../export/table';
import { ExportButtons } from './ExportButtons';

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
}

/** A titled report table with XLSX/CSV downloads; optionally collapsible (block report). */
export function ReportTable({ title, head, body, foot, exportTable, fileBase, collapsible = false, collapsed = false, print = false, testId, className }: ReportTableProps) {
  const [open, setOpen] = useState(!collapsed);
  const shown = print || !collapsible || open;
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
        <div className="table-scroll">
          <table className={`data-table compact report-data ${className ?? ''}`} data-pdf="table">
            <thead>{head}</thead>
            <tbody>{body}</tbody>
            {foot && <tfoot>{foot}</tfoot>}
          </table>
        </div>
      )}
    </section>
  );
}
