/**
 * The report replies the report screens read: the API's types (api/src/report/schema.ts through
 * the one contract, pwa/src/api/types.ts), with the nested views the screens name derived from
 * them, never copied. docs/api.md, «Отчёты», names every field and unit.
 */
import type { InteractiveFrv, ReportBlock, StatementReport } from '../../api/types';

export type { BlockReport, InteractiveFrv, ReportBlock, ResolvedShare, StatementReport, VideoSegment } from '../../api/types';

export type MeasurementTable = StatementReport['measurements'];
export type MeasurementRow = MeasurementTable['rows'][number];
export type Slice = StatementReport['slices'][number];
export type FrvItem = InteractiveFrv['items'][number];
/** A cell of a table block. */
export type Cell = Extract<ReportBlock, { type: 'table' }>['rows'][number][string];
