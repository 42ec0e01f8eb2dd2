import { proxy } from 'valtio';

export interface ReportShift {
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: number;
}

/** spec 02 §3 "reportGenerator": shifts list. */
export const reportGenerator = proxy({ shifts: [] as ReportShift[] });
