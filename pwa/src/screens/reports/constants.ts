/** spec 01 §9 constants the report screens use, in one place. */

/** Allowed fluctuation of a time series, % — the reference line of the fluctuation chart. */
export const ALLOWED_FLUCTUATION_PERCENT = 15;
/** Pie labels only on slices above this percent… */
export const PIE_LABEL_MIN_PERCENT = 4;
/** …and above this one in the outer ring. */
export const OUTER_RING_LABEL_MIN_PERCENT = 0.01;
/** Observation sheet: the first 10 measurement columns, then an ellipsis (header span at most 11). */
export const MEASUREMENT_COLUMNS_SHOWN = 10;
/** Block report chart height, px. */
export const CHART_HEIGHT_PX = 800;
/** Interactive report: table height = video height + 76 px. */
export const INTERACTIVE_TABLE_EXTRA_PX = 76;
/** Human figure: fills 1 % every 50 ms up to the useful-time percent. */
export const HUMAN_FILL_STEP_MS = 50;
/** The category excluded from the available-time chart ('rest and personal needs'). */
export const EXCLUDED_FROM_AVAILABLE_TIME = 'rest';
/** The text of spec 01 §8 after a share link is copied (reports). */
export const LINK_COPIED = 'Ссылка скопирована!';
/** The text of spec 01 §5 for a block type the screen does not know. */
export const unknownBlockText = (type: string) => `Неизвестный тип блока ${type}`;
/**
 * A long report table (ColumnTable `virtual`: the statement's tables 4 and 6) builds only the rows in
 * view once it has more rows than this (issue 47); the print layout and printing build every row.
 */
export const VIRTUAL_FROM = 60;
