/**
 * Shapes of the report replies the report screens read, kept in step with
 * api/src/report/schema.ts (docs/api.md, «Отчёты», names every field and unit).
 */
export type CategoryCode = 'main' | 'aux' | 'pz' | 'service' | 'move' | 'rest' | 'idle';

export interface ReportParameterRow {
  id: number; index: number; name: string; operation_type: CategoryCode; percent_video: number; len: number; ave_len: number;
  standard_len: number | null; coef: number | null; percent_day: number; percent_w_day: number; time_2min: number | null;
  fluct_ave: number | null; t_min: number | null; count: number;
}

export interface StatementOperation { id: number; len: number; ave_len: number; name: string; operation_type: CategoryCode; index: number; count: number; percent_video: number }

export interface Loading {
  overload: boolean; percentage: number; overworking: number; overworking_per: number; all_time: number;
  main_work_time: { value: number; percent: number }; add_work_time: number; controltime: number; pz_time: number; rest_time: number;
  movetime: number; behind_machine: { percent: number; value: number }; idle_time: number; work_time: number; shift_time: number;
  regulated_break_time: number; available_time: number; underload: number; underload_per: number; text: string; basis: 'shifts' | 'observed';
}

export interface FrvRow {
  id: number; name: string; start_datetime: string; finish_datetime: string; len_interval: number; index: number; number: number;
  operation_id: number; operation_type: CategoryCode;
}

export interface MeasurementValue { index: number; id: number | null; start_datetime: string; len: number; status: 'accepted' | 'dropped' | 'zero_length'; fluct_perc: number }

export interface MeasurementRow {
  id: number; operation_type: 'op'; operation: { type: CategoryCode; name: string }; measurements: MeasurementValue[]; n: number;
  t_min: number; t_reg: number; t_freq_pred: number; t_freq_fact: number; t_max: number; t_average: number; par2: number;
  fluct_max: number; fluct_average: number; fluct_min: number; fluct_ave: number; time_2min: number; coef: number; standard_len: number;
  len: number; normative_coef: number; normative_source: 'threshold' | 'reference'; accuracy_percent: number;
  required_measurements: number; enough_measurements: boolean; dropped: number; work_kind: 'manual' | 'machine';
}

export interface ReportDay {
  date: string; start_datetime: string; end_datetime: string; first_start: string | null; last_end: string | null; actual_day_len: number;
  observed_time: number; work_time: number; shift_time: number; regulated_break_time: number; available_time: number; percentage: number;
  overload: boolean; text: string; product_num: number | null; takt: number | null;
}

export interface MeasurementTable { max_operation_count: number; rows: MeasurementRow[] }

export interface Slice { index: number; type: CategoryCode; name: string; color: string; len: number; percent: number; percent_w_day: number }

export interface NormativeRow { index: number; type: CategoryCode; name: string; color: string; len_fact: number; len_norm: number; percent_fact: number; percent_norm: number }

export interface StatementReport {
  operations: StatementOperation[];
  parameters: ReportParameterRow[];
  parameters_total: { len: number; percent_video: number; standard_len: number; count: number };
  loading: Loading;
  frv: FrvRow[];
  measurements: MeasurementTable;
  all_measurements: MeasurementTable;
  rep_param: {
    from_time: string; to_time: string; worker_name: string; date: string; product_num: number; products_description: string;
    structure: { name: string; shift_start_time: string | null; shift_end_time: string | null; partial: boolean; id: number; production_type: string; shift_name: string | null };
    employee_id: number; time_zone: string; products_source: 'manual' | 'stamps'; stamp_count: number;
  };
  breaks: { type: 'regulated' | 'gap'; start_datetime: string; end_datetime: string; len: number }[];
  slices: Slice[];
  normative: { hidden: boolean; productivity_rise: number | null; rows: NormativeRow[] };
  losses: { len: number; idle_len: number; rest_len: number; percent: number; pareto: { id: number; name: string; operation_type: CategoryCode; len: number; percent: number; cumulative_percent: number }[] };
  takt: { actual_day_len: number; break_len: number; product_num: number | null; takt: number | null };
  balance: { basis: string; observed_time: number; shift_time: number; regulated_break_time: number; available_time: number; work_time: number; useful_time: number; useful_percent: number; covered_time: number };
  days: ReportDay[];
  input_errors: { code: string; message: string; markup_id: number | null; other_markup_id: number | null; employee_id: number }[];
  cleaning_rule: string;
  cleaning_mode: 'one_extreme' | 'both_extremes';
  reference: { source: string; edition: string; is_default: boolean };
  notice: string | null;
  notices: string[];
}

export interface PieSlice { key: string; name: string; color: string; value: number; percent: number; type?: CategoryCode }
export type Cell = string | number | boolean | null;

export type ReportBlock =
  | { type: 'header'; title: string; subtitle: string; structure: { id: number; name: string; partial: boolean }; from_time: string; to_time: string; period: string; time_zone: string }
  | { type: 'paragraph'; title: string | null; text: string; tone: 'normal' | 'notice' }
  | { type: 'table'; title: string; collapsible: boolean; collapsed: boolean; columns: { key: string; title: string; unit: string | null }[]; rows: Record<string, Cell>[]; total: Record<string, Cell> | null }
  | { type: 'diagram'; title: string; unit: string; inner: PieSlice[]; outer: PieSlice[]; label_min_percent: number; total: number }
  | { type: 'pareto'; title: string; unit: string; bars: { key: string; name: string; type: CategoryCode; value: number; percent: number; cumulative_percent: number }[]; total: number }
  | { type: 'double_diagram'; title: string; unit: string; left: { title: string; slices: PieSlice[] }; right: { title: string; slices: PieSlice[] }; productivity_rise: number | null }
  | { type: 'human'; title: string; percent: number; rows: { key: string; name: string; color: string; value: number; percent: number }[]; total: { value: number; percent: number } }
  | { type: 'human_proportion'; title: string; groups: { status: string; name: string; range: string; count: number; percent: number; color: string }[]; total: number }
  | { type: 'grouped_bar'; title: string; unit: string; stacked: boolean; categories: string[]; series: { key: string; name: string; color: string; values: number[] }[]; reference_line: { name: string; values: number[] } | null }
  | { type: 'black_diagram'; title: string; unit: string; sectors: { hour: number; label: string; value: number; idle: number; rest: number }[]; total: number };

export interface BlockReport { blocks: ReportBlock[] }

export interface VideoSegment { video_id: number; video_segment: { start: number; end: number }; camera_id: number; camera_key: number; filename: string }

export interface FrvItem {
  operation_name: string; operation_type: CategoryCode; time_slot: { fromm: string; to: string }; duration: number; video_segments: VideoSegment[];
  id: number; number: number; index: number; operation_id: number; employee_id: number | null; employee_name: string | null; workplace_name: string;
}

export interface InteractiveFrv {
  structure: { name: string; id: number };
  requested_slot: { fromm: string; to: string };
  items: FrvItem[];
  operation_types: { code: CategoryCode; label: string; color: string }[];
  time_zone: string;
}

export interface ResolvedShare { structure_id: number; from_time: string; to_time: string; structure_name: string; time_zone: string }
