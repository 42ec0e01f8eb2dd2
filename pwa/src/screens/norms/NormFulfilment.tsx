import { useEffect } from 'react';
import { Banner } from '../../ui/Banner';
import { api } from '../../api/client';
import type { NormFulfilment } from '../../api/types';
import type { ExportTable, ExportValue } from '../../export/table';
import { num, pct } from '../reports/format';
import { ReportTable } from '../reports/ReportTable';
import { useLoad } from '../reports/useLoad';
import { dmy } from '../projects/period';

/**
 * Norm fulfilment of a report window (docs/norms.md «Выполнение норм»), from
 * GET /api/v1/norm_fulfilment: per employee and whole shift-day, with the window's total per
 * employee and for all; shown under the statement and the block report (and in their PDFs), and
 * used by the interactive report to mark cycles far from the norm. Not asked for a shared (key) report.
 */
export function useNormFulfilment(structureId: number, from: string, to: string, employeeId?: number, enabled = true) {
  return useLoad(enabled ? `fulfilment/${structureId}/${from}/${to}/${employeeId ?? ''}` : null, () =>
    api.get('/api/v1/norm_fulfilment', { query: { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId }, quiet: true }),
  );
}

/** Cycles far from the norm of a window, by markup id (deviation, %); a failed call is kept as its message, shown by the report. */
export interface FarFromNorm {
  cycles: Map<number, number>;
  error: string | null;
}

export async function loadFarFromNorm(structureId: number, from: string, to: string): Promise<FarFromNorm> {
  try {
    const reply = await api.get('/api/v1/norm_fulfilment', { query: { structure_id: structureId, from_time: from, to_time: to }, quiet: true });
    return { cycles: new Map(reply.far_cycles.map((c) => [c.markup_id, c.deviation_percent])), error: null };
  } catch (err) {
    return { cycles: new Map(), error: err instanceof Error ? err.message : String(err) };
  }
}

type Row = NormFulfilment['rows'][number];
type Total = NormFulfilment['total'];

/** What a shift-day without fulfilment reads: no output is never «0 %» (METHODOLOGY §7). */
export const NO_OUTPUT_TEXT = 'нет выпуска';
export const NO_NORM_TEXT = 'нет нормы';

export const OUTPUT_SOURCE_LABELS: Record<Row['output_source'], string> = {
  manual: 'введён вручную',
  stamps: 'отметки «продукт»',
  none: 'нет выпуска',
};

/** The fulfilment cell of a row or total: the percent, else why there is none. */
function fulfilmentText(percent: number | null, hasNorm: boolean, units: number): string {
  if (percent !== null) return pct(percent, 1);
  if (!hasNorm) return NO_NORM_TEXT;
  return units > 0 ? '—' : NO_OUTPUT_TEXT;
}

const rowText = (r: Row) => fulfilmentText(r.fulfilment_percent, r.norm_id !== null, r.units);
/** A total without a percent: no shift-day with output, or none of them under a norm. */
const totalText = (t: Total) =>
  t.fulfilment_percent !== null ? pct(t.fulfilment_percent, 1) : t.days_with_output === 0 ? NO_OUTPUT_TEXT : t.days_counted === 0 ? NO_NORM_TEXT : '—';

/** The totals shown: each employee's, and the one for all when there is more than one employee. */
function totalsOf(data: NormFulfilment): { label: string; total: Total }[] {
  const own = data.totals.map((t) => ({ label: `${t.employee_name ?? ''}: итого`, total: t }));
  return data.totals.length > 1 ? [...own, { label: 'Все сотрудники: итого', total: data.total }] : own;
}

/** The block's table as data for the XLSX and CSV downloads: the same rows and totals as the screen, numbers as numbers. */
export function fulfilmentTable(data: NormFulfilment): ExportTable {
  const cell = (percent: number | null, text: string): ExportValue => (percent !== null ? percent : text);
  return {
    title: 'Выполнение норм',
    columns: [
      'Сотрудник',
      'Смена-сутки',
      'Норма',
      'Нвр, мин',
      'Выпуск, шт.',
      'Источник выпуска',
      'Тсм, мин',
      'Простои, мин',
      'Факт на единицу, мин',
      'Выполнение нормы, %',
    ],
    rows: [
      ...data.rows.map((r): ExportValue[] => [
        r.employee_name,
        dmy(r.date),
        r.norm_version === null ? NO_NORM_TEXT : `версия ${r.norm_version}`,
        r.norm_time_minutes,
        r.units,
        OUTPUT_SOURCE_LABELS[r.output_source],
        r.shift_minutes,
        r.idle_minutes,
        r.actual_minutes_per_unit,
        cell(r.fulfilment_percent, rowText(r)),
      ]),
      ...totalsOf(data).map(({ label, total }): ExportValue[] => [
        label,
        `${total.days_counted} из ${total.days}`,
        null,
        null,
        total.units,
        null,
        null,
        null,
        total.actual_minutes_per_unit,
        cell(total.fulfilment_percent, totalText(total)),
      ]),
    ],
  };
}

/** The block's table: one row per employee and shift-day, then the window's totals. */
export function NormFulfilmentTable({ data, fileBase, print = false }: { data: NormFulfilment; fileBase: string; print?: boolean }) {
  return (
    <ReportTable
      title="Выполнение норм"
      fileBase={fileBase}
      print={print}
      exportTable={() => fulfilmentTable(data)}
      testId="norm-fulfilment"
      head={
        <tr>
          <th>Сотрудник</th>
          <th>Смена-сутки</th>
          <th>Норма</th>
          <th>Нвр, мин</th>
          <th>Выпуск, шт.</th>
          <th>Источник выпуска</th>
          <th>Факт на единицу, мин</th>
          <th>Выполнение нормы</th>
        </tr>
      }
      body={data.rows.map((r) => (
        <tr key={`${r.employee_id}-${r.date}`} data-testid="fulfilment-row" data-output={r.output_source}>
          <td>{r.employee_name}</td>
          <td>{dmy(r.date)}</td>
          <td>{r.norm_version === null ? NO_NORM_TEXT : `версия ${r.norm_version}`}</td>
          <td className="num">{num(r.norm_time_minutes, 2)}</td>
          <td className="num" data-testid="fulfilment-units">
            {num(r.units, 0)}
          </td>
          <td>{OUTPUT_SOURCE_LABELS[r.output_source]}</td>
          <td className="num">{num(r.actual_minutes_per_unit, 2)}</td>
          <td className="num" data-testid="fulfilment-percent">
            {rowText(r)}
          </td>
        </tr>
      ))}
      foot={totalsOf(data).map(({ label, total }) => (
        <tr key={label} data-testid="fulfilment-total">
          <td>{label}</td>
          <td>{`${total.days_counted} из ${total.days} смен-суток`}</td>
          <td />
          <td />
          <td className="num" data-testid="fulfilment-total-units">
            {num(total.units, 0)}
          </td>
          <td />
          <td className="num">{num(total.actual_minutes_per_unit, 2)}</td>
          <td className="num" data-testid="fulfilment-total-percent">
            {totalText(total)}
          </td>
        </tr>
      ))}
    />
  );
}

/**
 * The block under a report. `onSettled` is called once the block has its final content (the table,
 * the note, or the failure): a /pdf layout waits for it, so the PDF always carries the block.
 */
export function NormFulfilmentBlock({
  structureId,
  from,
  to,
  employeeId,
  print = false,
  onSettled,
}: {
  structureId: number;
  from: string;
  to: string;
  employeeId?: number;
  print?: boolean;
  onSettled?: () => void;
}) {
  const loaded = useNormFulfilment(structureId, from, to, employeeId);
  const settled = loaded.state !== 'loading';
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  if (loaded.state === 'loading') return null;
  // The report itself stands; the block says why the fulfilment is missing rather than hiding it.
  if (loaded.state === 'error')
    return (
      <section className="report-block" data-testid="norm-fulfilment">
        <h2>Выполнение норм</h2>
        <Banner text={`Не удалось загрузить выполнение норм: ${loaded.message}`} />
      </section>
    );
  const data = loaded.data;
  if (!data.rows.some((r) => r.norm_id !== null))
    return (
      <section className="report-block" data-testid="norm-fulfilment">
        <h2 data-pdf="heading">Выполнение норм</h2>
        <p className="muted" data-pdf="text">
          В эти дни не действовала ни одна утверждённая норма структурной единицы.
        </p>
      </section>
    );
  const dates = data.rows.map((r) => r.date).sort();
  const span = dates[0] === dates.at(-1) ? dmy(dates[0]!) : `${dmy(dates[0]!)}–${dmy(dates.at(-1)!)}`;
  return <NormFulfilmentTable data={data} fileBase={`Выполнение норм ${span}`} print={print} />;
}
