/**
 * The reports that may run on a report thread (threads/report-threads.ts, report-thread.ts). A module of
 * its own, without imports, so that the threads name the task without importing the routes that
 * send it (report/computed.routes.ts imports deps.ts, which imports the threads: a loop of types).
 */
export type ReportThreadTask =
  | { task: 'blockReport'; structureId: number; from: number; to: number }
  | { task: 'frv'; structureId: number; from: number; to: number }
  | { task: 'statement'; structureId: number; employeeId: number; from: number; to: number; details: boolean };
