import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import type { AppDeps } from '../deps';
import { forbidden } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import type { SessionUser } from '../http/env';
import { calculate, gearTable, measurementGraph, requiredMeasurementsFor, type CalculatorInput } from './formulas';
import {
  CalculatorQuery,
  DaysReply,
  DefaultsReply,
  GearDefaultsReply,
  GearTable,
  LicenseReply,
  MeasurementGraph,
  PrivateOutput,
  PublicOutput,
  RequiredMeasurementsQuery,
  RequiredMeasurementsReply,
  UpdateDefaultsBody,
} from './schema';
import { calculatorAccess, calculatorStabilityTable, loadSettings, requirePrivate, settingsView, updateSettings } from './service';

const tags = ['Калькулятор'];

/**
 * Spec 02 §7 "Calculator". Public: required measurements, public output, days, measurement graph.
 * Members of the owner organisation: private output, gear table, settings. Its admins: updates.
 */
export function calculatorRoutes({ db }: AppDeps) {
  const app = createRouter();
  const requireCalculatorAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!(await calculatorAccess(db, currentUser(c))).canEdit)
      throw forbidden('Изменять настройки калькулятора может только администратор организации-владельца');
    await next();
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/required_measurements',
      tags,
      summary: 'Нормативный Ку и число необходимых замеров по типу производства (открыто без входа)',
      request: { query: RequiredMeasurementsQuery },
      responses: { 200: json(RequiredMeasurementsReply), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const table = await calculatorStabilityTable(db, c.get('user'));
      return c.json(requiredMeasurementsFor(table, q.production_type, q.less_10_sec), 200);
    },
  );

  /** Settings, reference table and the figures for one request's inputs. */
  const compute = async (user: SessionUser | null, q: CalculatorInput) => {
    const [settings, table] = await Promise.all([loadSettings(db), calculatorStabilityTable(db, user)]);
    return calculate(q, settings, table);
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_public_output',
      tags,
      summary: 'Публичный расчёт: замеры, стоимость, экономия, срок, камеры (открыто без входа)',
      request: { query: CalculatorQuery },
      responses: { 200: json(PublicOutput), ...errorResponses },
    }),
    async (c) => c.json((await compute(c.get('user'), c.req.valid('query'))).public, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_days',
      tags,
      summary: 'Дни этапов: установка камер, разметка, аналитика (открыто без входа)',
      request: { query: CalculatorQuery },
      responses: { 200: json(DaysReply), ...errorResponses },
    }),
    async (c) => c.json((await compute(c.get('user'), c.req.valid('query'))).days, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_measurement_graph',
      tags,
      summary: 'График: сколько замеров нужно при разном Ку для точности типа производства (открыто без входа)',
      request: { query: CalculatorQuery },
      responses: { 200: json(MeasurementGraph), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(measurementGraph(await calculatorStabilityTable(db, c.get('user')), q.production_type, q.less_10_sec), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_private_output',
      tags,
      summary: 'Служебный расчёт: часы, статьи затрат, машины, экономика (сотрудники организации-владельца)',
      request: { query: CalculatorQuery },
      responses: { 200: json(PrivateOutput), ...errorResponses },
    }),
    async (c) => {
      await requirePrivate(db, c.get('user'));
      return c.json((await compute(c.get('user'), c.req.valid('query'))).private, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_gear_table',
      tags,
      summary: 'Оборудование проекта: нужно, на складе, купить, стоимость (сотрудники организации-владельца)',
      request: { query: CalculatorQuery },
      responses: { 200: json(GearTable), ...errorResponses },
    }),
    async (c) => {
      await requirePrivate(db, c.get('user'));
      return c.json(gearTable(c.req.valid('query'), await loadSettings(db)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_gear_defaults',
      tags,
      summary: 'Оборудование на складе и цены; флаги can_edit и can_view_private (без входа — оба false)',
      responses: { 200: json(GearDefaultsReply), ...errorResponses },
    }),
    async (c) => {
      const access = await calculatorAccess(db, c.get('user'));
      const gear = access.canViewPrivate ? (await settingsView(db)).gear : [];
      return c.json({ can_edit: access.canEdit, can_view_private: access.canViewPrivate, gear }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_defaults',
      tags,
      summary: 'Значения по умолчанию калькулятора (сотрудники организации-владельца)',
      responses: { 200: json(DefaultsReply), ...errorResponses },
    }),
    async (c) => {
      await requirePrivate(db, c.get('user'));
      const access = await calculatorAccess(db, c.get('user'));
      return c.json({ defaults: (await settingsView(db)).defaults, can_edit: access.canEdit }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_license',
      tags,
      summary: 'Лицензия и машины (сотрудники организации-владельца)',
      responses: { 200: json(LicenseReply), ...errorResponses },
    }),
    async (c) => {
      await requirePrivate(db, c.get('user'));
      const access = await calculatorAccess(db, c.get('user'));
      return c.json({ license: (await settingsView(db)).license, can_edit: access.canEdit }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v2/update_calculator_defaults',
      tags,
      summary: 'Изменить настройки калькулятора: только изменённые значения (администратор организации-владельца)',
      description: 'Имена: значения по умолчанию, настройки лицензии, owned_<оборудование> и <оборудование>_price. Всё или ничего.',
      // The admin check comes before the body is parsed: a visitor's body is never read.
      middleware: [requireCalculatorAdmin] as const,
      request: { body: { content: { 'application/json': { schema: UpdateDefaultsBody } }, required: true } },
      responses: { 200: json(GearDefaultsReply.extend({ defaults: DefaultsReply.shape.defaults, license: LicenseReply.shape.license })), ...errorResponses },
    }),
    async (c) => {
      await updateSettings(db, currentUser(c).id, c.req.valid('json'));
      return c.json({ can_edit: true, can_view_private: true, ...(await settingsView(db)) }, 200);
    },
  );

  return app;
}
