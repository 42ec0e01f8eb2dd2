/** Exports that both `index.ts` and `reference.ts` share verbatim (scalar formulas, reference data). */
export { DEFAULT_STABILITY_TABLE, accuracyFor, normativeStability } from './reference-data.ts';
export {
  ALLOWED_FLUCTUATION_PERCENT,
  CLEANING_RULE,
  CLEANING_RULE_BOTH,
  cleaningRuleText,
  DEFAULT_REGULAR_BREAK_MINUTES,
  MONTHLY_HOURS_FUND,
  cvFromStability,
  daysWord,
  multiDayLoadText,
  loadStatus,
  moneyLost,
  requiredMeasurements,
  requiredMeasurementsForStability,
} from './formulas.ts';
export { resolveSettings } from './assemble.ts';
