/**
 * The report entities of spec 01 §3, written down field by field with the type each field has in
 * Norma's API, for the contract tests. A nested object is a nested shape; `[shape]` is a list
 * whose every item has that shape. (Test support: imported only by *.test.ts.)
 */
export type FieldType = 'number' | 'string' | 'boolean' | 'iso' | 'date' | 'array' | 'number|null' | 'string|null';
export type Shape = { [field: string]: FieldType | Shape | [Shape] };

/** Report parameter row: index (category), name, operation_type, percent_video, len, standard_len, coef, percent_day, percent_w_day. */
export const REPORT_PARAMETER_ROW: Shape = {
  index: 'number',
  name: 'string',
  operation_type: 'string',
  percent_video: 'number',
  len: 'number',
  standard_len: 'number|null',
  coef: 'number|null',
  percent_day: 'number',
  percent_w_day: 'number',
};

/** Statement parameters[name, len, ave_len, time_2min, fluct_ave, t_min] (merged with the row above). */
export const STATEMENT_PARAMETER: Shape = {
  ...REPORT_PARAMETER_ROW,
  ave_len: 'number',
  time_2min: 'number|null',
  fluct_ave: 'number|null',
  t_min: 'number|null',
};

/** Measurement: id, fluct_ave, t_min, rows with operation_type 'op', operation.name, t_reg, t_freq_fact, fluct_perc. */
export const MEASUREMENT_VALUE: Shape = { index: 'number', id: 'number|null', len: 'number', fluct_perc: 'number', start_datetime: 'iso', status: 'string' };
export const MEASUREMENT_ROW: Shape = {
  id: 'number',
  fluct_ave: 'number',
  operation_type: 'string',
  operation: { type: 'string', name: 'string' },
  measurements: [MEASUREMENT_VALUE],
  t_min: 'number',
  t_reg: 'number',
  t_freq_pred: 'number',
  t_freq_fact: 'number',
  t_max: 'number',
  t_average: 'number',
  par2: 'number',
  fluct_max: 'number',
  fluct_average: 'number',
  fluct_min: 'number',
};
export const MEASUREMENT_TABLE: Shape = { max_operation_count: 'number', rows: [MEASUREMENT_ROW] };

/** Statement report (spec 01 §3). */
export const STATEMENT_REPORT: Shape = {
  operations: [{ id: 'number', len: 'number', ave_len: 'number' }],
  parameters: [STATEMENT_PARAMETER],
  loading: {
    overload: 'boolean',
    percentage: 'number',
    overworking: 'number',
    overworking_per: 'number',
    all_time: 'number',
    main_work_time: { value: 'number', percent: 'number' },
    add_work_time: 'number',
    controltime: 'number',
    pz_time: 'number',
    rest_time: 'number',
    movetime: 'number',
    behind_machine: { percent: 'number' },
  },
  frv: [{ id: 'number', name: 'string', start_datetime: 'iso', finish_datetime: 'iso', len_interval: 'number', index: 'number' }],
  measurements: MEASUREMENT_TABLE,
  all_measurements: MEASUREMENT_TABLE,
  rep_param: {
    from_time: 'iso',
    to_time: 'iso',
    worker_name: 'string',
    date: 'date',
    product_num: 'number',
    products_description: 'string',
    structure: { name: 'string', shift_start_time: 'string|null', shift_end_time: 'string|null', partial: 'boolean' },
  },
  /** Break: type, start_datetime, end_datetime. */
  breaks: [{ type: 'string', start_datetime: 'iso', end_datetime: 'iso' }],
  slices: 'array',
};

/** Interactive frv (spec 01 §3). */
export const INTERACTIVE_FRV: Shape = {
  structure: { name: 'string' },
  requested_slot: { fromm: 'iso', to: 'iso' },
  items: [
    {
      operation_name: 'string',
      operation_type: 'string',
      time_slot: { fromm: 'iso', to: 'iso' },
      duration: 'number',
      video_segments: [{ video_id: 'number', video_segment: { start: 'number', end: 'number' } }],
    },
  ],
};

/** Block types of spec 01 "Block-based report". */
export const BLOCK_TYPES = [
  'header',
  'table',
  'diagram',
  'pareto',
  'paragraph',
  'double_diagram',
  'human',
  'human_proportion',
  'grouped_bar',
  'black_diagram',
] as const;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Every problem of `value` against `shape`, as "path: what" lines (empty when it conforms). */
export function shapeProblems(value: unknown, shape: Shape | FieldType | [Shape], path = '$'): string[] {
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: ожидается массив`];
    return value.flatMap((item, i) => shapeProblems(item, shape[0], `${path}[${i}]`));
  }
  if (typeof shape === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: ожидается объект`];
    return Object.entries(shape).flatMap(([field, inner]) =>
      field in (value as object) ? shapeProblems((value as Record<string, unknown>)[field], inner, `${path}.${field}`) : [`${path}.${field}: нет поля`],
    );
  }
  const ok = (() => {
    switch (shape) {
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'string':
        return typeof value === 'string';
      case 'boolean':
        return typeof value === 'boolean';
      case 'iso':
        return typeof value === 'string' && ISO.test(value);
      case 'date':
        return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
      case 'array':
        return Array.isArray(value);
      case 'number|null':
        return value === null || (typeof value === 'number' && Number.isFinite(value));
      case 'string|null':
        return value === null || typeof value === 'string';
    }
  })();
  return ok ? [] : [`${path}: ожидается ${shape}, получено ${JSON.stringify(value)}`];
}
