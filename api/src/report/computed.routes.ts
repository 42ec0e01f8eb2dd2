import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { buildBlockReport } from './blocks';
import { buildInteractiveFrv } from './frv';
import { BlockReport, InteractiveFrv, ReportWindowQuery, StatementQuery, StatementReport } from './schema';
import { buildStatement } from './statement';

const tags = ['Отчёты'];

/**
 * Who may read the interactive report of one window: a signed-in user of the structure's
 * organisation, or a visitor whose share key opens this structure and a window inside the key's
 * (`reports.window.read`, one of the permissions a key carries: auth/roles.ts, auth/share-keys.ts).
 */
export function frvWindowAccess(db: Db) {
  return requireAccess(db, 'reports.window.read', structureFrom.query());
}

/** The reports that may run on a report thread (threads/report-threads.ts). */
export type ReportThreadTask =
  | { task: 'blockReport'; structureId: number; from: number; to: number }
  | { task: 'frv'; structureId: number; from: number; to: number }
  | { task: 'statement'; structureId: number; employeeId: number; from: number; to: number; details: boolean };

/** The reports computed over a window: the statement, the block report and the interactive report. */
export function reportComputedRoutes(deps: Pick<AppDeps, 'db' | 'reportThreads'>) {
  const { db } = deps;
  const app = createRouter();
  /** A wide report: on a report thread when the server has them (main.ts), its JSON text sent as it is; else computed here. */
  const report = async (c: Context<AppEnv>, task: ReportThreadTask, here: () => Promise<unknown>) =>
    (deps.reportThreads ? c.body(await deps.reportThreads.run(task), 200, { 'content-type': 'application/json' }) : c.json(await here(), 200)) as never;
  const readReports = requireAccess(db, 'reports.read', structureFrom.query());

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/report',
      tags,
      summary: 'Ведомость (отчёт по сотруднику) за окно',
      description: 'spec 01 §3 «Statement report». Поля и единицы — docs/api.md, раздел «Отчёты».',
      middleware: [readReports] as const,
      request: { query: StatementQuery },
      responses: { 200: json(StatementReport), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const task = {
        task: 'statement',
        structureId: c.get('structureId'),
        employeeId: q.employee_id,
        from: q.from_time,
        to: q.to_time,
        details: q.details === '1',
      } as const;
      return report(c, task, () => buildStatement(db, task.structureId, task.employeeId, task.from, task.to, task.details));
    },
  );

  for (const path of ['/api/v2/report', '/api/v3/compute-report'] as const) {
    app.openapi(
      createRoute({
        method: 'get',
        path,
        tags,
        summary: path === '/api/v2/report' ? 'Блочный отчёт по структурной единице' : 'Блочный отчёт (для встраивания во фрейм)',
        middleware: [readReports] as const,
        request: { query: ReportWindowQuery },
        responses: { 200: json(BlockReport), ...errorResponses },
      }),
      async (c) => {
        const q = c.req.valid('query');
        const task = { task: 'blockReport', structureId: c.get('structureId'), from: q.from_time, to: q.to_time } as const;
        return report(c, task, () => buildBlockReport(db, task.structureId, task.from, task.to));
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/frv',
      tags,
      summary: 'Интерактивный отчёт: отрезки окна и их места во всех видеофайлах',
      middleware: [frvWindowAccess(db)] as const,
      request: { query: ReportWindowQuery },
      responses: { 200: json(InteractiveFrv), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const task = { task: 'frv', structureId: c.get('structureId'), from: q.from_time, to: q.to_time } as const;
      return report(c, task, () => buildInteractiveFrv(db, task.structureId, task.from, task.to));
    },
  );
  return app;
}
