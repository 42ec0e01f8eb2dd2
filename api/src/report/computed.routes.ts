import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import { chooseEncoding } from '../http/compress';
import type { AppEnv } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { buildBlockReport } from './blocks';
import { buildInteractiveFrv } from './frv';
import { BlockReport, InteractiveFrv, ReportWindowQuery, StatementQuery, StatementReport } from './schema';
import { buildStatement } from './statement';
import type { ReportThreadTask } from './thread-task';

const tags = ['Отчёты'];

/**
 * Who may read the interactive report of one window: a signed-in user of the structure's
 * organisation, or a visitor whose share key opens this structure and a window inside the key's
 * (`reports.window.read`, one of the permissions a key carries: auth/roles.ts, auth/share-keys.ts).
 */
export function frvWindowAccess(db: Db) {
  return requireAccess(db, 'reports.window.read', structureFrom.query());
}

/** The reports computed over a window: the statement, the block report and the interactive report. */
export function reportComputedRoutes(deps: Pick<AppDeps, 'db' | 'reportThreads'>) {
  const { db } = deps;
  const app = createRouter();
  /**
   * A wide report: on a report thread when the server has them (main.ts), sent as the thread gives it — JSON
   * text, or already compressed for this client; else computed here. The threads take turns by requester
   * (as fair share counts them), so that one user's flood does not queue ahead of everyone else.
   */
  const report = async (c: Context<AppEnv>, task: ReportThreadTask, here: () => Promise<unknown>) => {
    if (!deps.reportThreads) return c.json(await here(), 200) as never;
    const coding = c.req.method === 'HEAD' ? null : chooseEncoding(c.req.header('accept-encoding'));
    const answer = await deps.reportThreads.answer(task, coding);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // Already compressed, so compressResponses (http/compress.ts) leaves it alone: the Vary it would add is added here.
    if (answer.coding) Object.assign(headers, { 'content-encoding': answer.coding, vary: 'Accept-Encoding' });
    return c.body(answer.body as never, 200, headers) as never;
  };
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
