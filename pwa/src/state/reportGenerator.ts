import { proxy } from 'valtio';
import type { StructureSettings } from '../api/types';

/** A shift as GET /api/v1/structure/{id} answers it, without the fields the generator does not use. */
export type ReportShift = Pick<StructureSettings['shifts'][number], 'name' | 'start_time' | 'end_time' | 'regular_break_duration_min'>;

/** spec 02 §3 "reportGenerator": shifts list. */
export const reportGenerator = proxy({ shifts: [] as ReportShift[] });
