import type { ProductionType, StabilityTable } from './types.ts';

/**
 * Default reference table of METHODOLOGY §4: normative stability coefficients Ку and accuracy ε
 * by production type. Published tables differ by edition, so the product stores an editable copy
 * with its source in the database; these are only the starting values, labelled "default".
 */
export const DEFAULT_STABILITY_TABLE: StabilityTable = Object.freeze({
  source: 'default',
  edition: 'default',
  shortElementMaxSeconds: 10,
  machinePacedShort: 1.2,
  machinePacedLong: 1.1,
  rows: Object.freeze([
    { productionType: 'mass', label: 'массовое', manualShort: 2.0, manualLong: 1.5, accuracyPercent: 5 },
    { productionType: 'large_series', label: 'крупносерийное', manualShort: 2.3, manualLong: 1.7, accuracyPercent: 7 },
    { productionType: 'series', label: 'серийное', manualShort: 2.5, manualLong: 2.0, accuracyPercent: 10 },
    { productionType: 'small_series', label: 'мелкосерийное', manualShort: 3.0, manualLong: 2.5, accuracyPercent: 15 },
  ]) as StabilityTable['rows'],
}) as StabilityTable;

function rowFor(productionType: ProductionType, table: StabilityTable) {
  const row = table.rows.find((r) => r.productionType === productionType);
  if (!row) throw new RangeError(`Неизвестный тип производства: ${productionType}`);
  return row;
}

/**
 * Normative stability coefficient Ку for an element.
 * @param elementSeconds typical duration of the element (the mean of its measurements)
 * @example normativeStability('mass', 12, false) // 1.5
 */
export function normativeStability(
  productionType: ProductionType,
  elementSeconds: number,
  machinePaced: boolean,
  table: StabilityTable = DEFAULT_STABILITY_TABLE,
): number {
  const short = elementSeconds <= table.shortElementMaxSeconds;
  if (machinePaced) return short ? table.machinePacedShort : table.machinePacedLong;
  const row = rowFor(productionType, table);
  return short ? row.manualShort : row.manualLong;
}

/** Accuracy ε (percent) required of the mean for a production type. */
export function accuracyFor(productionType: ProductionType, table: StabilityTable = DEFAULT_STABILITY_TABLE): number {
  return rowFor(productionType, table).accuracyPercent;
}
