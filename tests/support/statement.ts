import { formatTime } from '../../pwa/src/format/time';
import { hms, wholeSecondSpan } from '../../pwa/src/screens/reports/format';
import type { StatementReport } from '../../pwa/src/screens/reports/types';

/** The cells of table 4's row `i` as the statement shows them, from the numbers of GET /api/v1/report. */
export function table4Cells(report: StatementReport, i: number): string[] {
  const row = report.frv[i]!;
  const zone = report.rep_param.time_zone;
  const span = wholeSecondSpan(row.start_datetime, row.finish_datetime);
  return [String(row.number), row.name, formatTime(span.start, zone), formatTime(span.end, zone), hms(span.seconds), String(row.index ?? '')];
}
