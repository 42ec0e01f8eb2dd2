/**
 * Report assembly shared by the API and the PWA (`@norma/core-wasm/report`): the statement, the
 * block report and the interactive report, computed from the report inputs of a window.
 */
export * from './inputs.ts';
export * from './window.ts';
export {
  NOTICES,
  reportNotices,
  typeInfo,
  statementBody,
  assembleStatement,
  UnknownEmployeeError,
  type StatementInput,
  type StatementReportData,
} from './statement.ts';
export { STATUS_LABELS, assembleBlockReport, type ReportBlock } from './blocks.ts';
export { assembleInteractiveFrv, type FrvItem } from './frv.ts';
export * from './text.ts';
export * from './time-zone.ts';
