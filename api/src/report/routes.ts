import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import type { Context } from 'hono';
import type { AppEnv } from '../http/env';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { buildBlockReport } from './blocks';
import { buildInteractiveFrv } from './frv';
import { referenceTable, resetReferenceTable, saveReferenceTable } from './reference';
import {
  BlockReport,
  DatesQuery,
  InputsQuery,
  InteractiveFrv,
  Products,
  ProductsBody,
  ProductsQuery,
  ReferenceStability,
  ReferenceStabilityBody,
  ReportDates,
  ReportInputs,
  ReportWindowQuery,
  StatementQuery,
  StatementReport,
} from './schema';
import { loadReportInputs, loadStructureContext, reportDates, requireEmployee, saveUnitsProduced, unitsProduced } from './service';
import { shareRoutes } from './share-routes';
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

export function reportRoutes(deps: AppDeps) {
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

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/report/inputs',
      tags,
      summary: 'Исходные данные отчётов за окно (для расчёта в браузере)',
      description:
        'Всё, из чего собираются ведомость, блочный отчёт и интерактивный отчёт: настройки и смены структурной единицы, справочник, ' +
        'разметка, сотрудники, отметки «продукт», введённый выпуск, видеофайлы. Приложение считает по ним отчёты тем же кодом ' +
        '(@norma/core-wasm/report), что и GET /api/v1/report, /api/v2/report и /api/v2/frv, и хранит ответ для работы без сети. ' +
        'docs/reports.md, «Расчёт в браузере».',
      middleware: [readReports] as const,
      request: { query: InputsQuery },
      responses: { 200: json(ReportInputs), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      if (q.employee_id !== undefined) await requireEmployee(db, c.get('structureId'), q.employee_id);
      return c.json(await loadReportInputs(db, c.get('structureId'), q.from_time, q.to_time, { employeeId: q.employee_id }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/report/dates',
      tags,
      summary: 'Даты (в часовом поясе организации), за которые есть разметка',
      middleware: [readReports] as const,
      request: { query: DatesQuery },
      responses: { 200: json(ReportDates), ...errorResponses },
    }),
    async (c) => {
      const context = await loadStructureContext(db, c.get('structureId'));
      return c.json({ ...(await reportDates(db, context.id, context.timeZone)), time_zone: context.timeZone }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/report/products',
      tags,
      summary: 'Выпуск продукции за окно: введённый вручную или по отметкам «продукт»',
      middleware: [readReports] as const,
      request: { query: ProductsQuery },
      responses: { 200: json(Products), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const employeeId = q.employee_id ?? 0;
      if (employeeId > 0) await requireEmployee(db, c.get('structureId'), employeeId);
      return c.json(await unitsProduced(db, c.get('structureId'), employeeId, q.from_time, q.to_time), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/report/products',
      tags,
      summary: 'Ввести выпуск продукции за окно вручную (null — вернуть подсчёт по отметкам)',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.query())] as const,
      request: { query: ProductsQuery, body: { content: { 'application/json': { schema: ProductsBody } }, required: true } },
      responses: { 200: json(Products), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const body = c.req.valid('json');
      const employeeId = q.employee_id ?? 0;
      if (employeeId > 0) await requireEmployee(db, c.get('structureId'), employeeId);
      await saveUnitsProduced(db, c.get('structureId'), employeeId, q.from_time, q.to_time, body);
      return c.json(await unitsProduced(db, c.get('structureId'), employeeId, q.from_time, q.to_time), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Справочник нормативных Ку и точности, который используют отчёты организации',
      middleware: [requireAccess(db, 'reports.read')] as const,
      responses: { 200: json(ReferenceStability), 401: errorResponses[401], 403: errorResponses[403] },
    }),
    async (c) => c.json(await referenceTable(db, currentUser(c).organizationId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Сохранить свою редакцию справочника (только администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: { body: { content: { 'application/json': { schema: ReferenceStabilityBody } }, required: true } },
      responses: { 200: json(ReferenceStability), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      await saveReferenceTable(db, user.organizationId, user.id, c.req.valid('json'));
      return c.json(await referenceTable(db, user.organizationId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Вернуть значения справочника по умолчанию (только администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      responses: { 200: json(ReferenceStability), 401: errorResponses[401], 403: errorResponses[403] },
    }),
    async (c) => {
      const user = currentUser(c);
      await resetReferenceTable(db, user.organizationId);
      return c.json(await referenceTable(db, user.organizationId), 200);
    },
  );

  app.route('/', shareRoutes({ db }));
  return app;
}
