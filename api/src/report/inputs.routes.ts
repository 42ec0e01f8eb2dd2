import { createRoute } from '@hono/zod-openapi';
import { requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { DatesQuery, InputsQuery, Products, ProductsBody, ProductsQuery, ReportDates, ReportInputs } from './schema';
import { loadReportInputs, loadStructureContext, reportDates, requireEmployee, saveUnitsProduced, unitsProduced } from './service';

const tags = ['Отчёты'];

/** What the reports are computed from: the inputs of a window, the dates with markup, the units produced (read and entered). */
export function reportInputsRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const readReports = requireAccess(db, 'reports.read', structureFrom.query());

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
      request: { query: ProductsQuery, ...jsonBody(ProductsBody) },
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
  return app;
}
