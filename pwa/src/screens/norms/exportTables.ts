import type { LineBalance } from '@norma/core-wasm/norms';
import type { NormCard } from '../../api/types';
import type { ExportTable } from '../../export/table';
import { stationsOf, type LineLayout } from './lineState';

/**
 * The norm card's and the line balance's tables as data for the XLSX and CSV downloads (as the
 * statement's tables download): numbers stay numbers, so a spreadsheet computes with them and
 * shows them with the decimal comma of a Russian locale (CSV: written with a comma).
 */
export function figuresTable(card: NormCard): ExportTable {
  return {
    title: 'Показатели нормы',
    columns: ['Показатель', 'Значение', 'Ед.', 'Источник'],
    rows: card.card.figures.map((f) => [f.label, f.value, f.unit, f.source]),
  };
}

export function operationsTable(card: NormCard): ExportTable {
  return {
    title: 'Операции единицы',
    columns: [
      'Операция',
      'Вид',
      't_reg, мин',
      'Темп, %',
      't_norm, мин',
      'Ку',
      'Ку нормативный',
      'Замеров',
      'Принято',
      'Нужно',
      'Достаточно',
      'Ряд неустойчив',
      'Раз на единицу',
      'Источник',
    ],
    rows: card.card.operations.map((o) => [
      o.name,
      o.category === 'main' ? 'основная' : 'вспомогательная',
      o.t_reg_minutes,
      o.rating_percent ?? 100,
      o.t_norm_minutes ?? o.t_reg_minutes,
      o.coef,
      o.normative_coef,
      o.measurements,
      o.accepted,
      o.required,
      o.enough,
      o.unstable ?? false,
      o.times_per_unit,
      o.source,
    ]),
  };
}

/** The line's stations in the analyst's order: work content only (losses never count). */
export function stationsTable(line: NormCard['card']['line'], layout: LineLayout, balance: LineBalance): ExportTable {
  const stations = stationsOf(line, layout);
  return {
    title: 'Баланс линии',
    columns: ['№', 'Станция (рабочее место)', 'Основная, мин', 'Вспомогательная, мин', 'Σt, мин', 'Операции'],
    rows: balance.stations.map((s, k) => [
      k + 1,
      s.name,
      s.byCategory.main,
      s.byCategory.aux,
      s.minutes,
      stations[k]!.operations.map((o) => o.name).join(', '),
    ]),
  };
}
