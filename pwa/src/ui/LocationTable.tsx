import { TableHead } from './TableHead';
import type { ReactNode } from 'react';
import { ConfirmButton } from './ConfirmButton';

export interface LocationColumn<T> {
  title: string;
  value(row: T): ReactNode;
  /** Right-aligned figures (coordinates). */
  number?: boolean;
}

interface LocationTableProps<T extends { id: number; name: string }> {
  rows: readonly T[] | null;
  /** Columns after «Имя». */
  columns: LocationColumn<NoInfer<T>>[];
  /** Shown in the one row of an empty table. */
  empty: string;
  canWrite: boolean;
  /** What a row is called in the delete question and the button's name, e.g. «область». */
  noun: string | ((row: NoInfer<T>) => string);
  onDelete(row: NoInfer<T>): void;
  testId: string;
  rowTestId: string;
}

/** Columns showing numeric fields as they are (null as empty). */
export const coordinateColumns = <K extends string>(...keys: K[]): LocationColumn<{ [key in K]: number | null | undefined }>[] =>
  keys.map((key) => ({ title: key, value: (row) => row[key] ?? '', number: true }));

function DeleteRow<T extends { name: string }>({ row, noun, onDelete }: { row: T; noun: string; onDelete(row: T): void }) {
  return <ConfirmButton question={`Удалить ${noun} «${row.name}»?`} label={`Удалить ${noun} ${row.name}`} onConfirm={() => onDelete(row)} />;
}

/** Named places with their coordinates (video areas, stands, stand and object locations), each with a delete that asks first. */
export function LocationTable<T extends { id: number; name: string }>({
  rows,
  columns,
  empty,
  canWrite,
  noun,
  onDelete,
  testId,
  rowTestId,
}: LocationTableProps<T>) {
  return (
    <div className="table-scroll fit-scope">
      <table className="data-table compact fit-table fit-auto" data-testid={testId}>
        <TableHead titles={['Имя', ...columns.map((c) => c.title)]} />
        <tbody>
          {rows?.length === 0 && (
            <tr>
              <td colSpan={columns.length + 2} className="muted">
                {empty}
              </td>
            </tr>
          )}
          {rows?.map((row) => (
            <tr key={row.id} data-testid={rowTestId}>
              <td className="fit-wide" data-label="Имя">
                {row.name}
              </td>
              {columns.map((c) => (
                <td key={c.title} className={c.number ? 'number' : undefined} data-label={c.title}>
                  {c.value(row)}
                </td>
              ))}
              <td className="fit-actions">{canWrite && <DeleteRow row={row} noun={typeof noun === 'string' ? noun : noun(row)} onDelete={onDelete} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
