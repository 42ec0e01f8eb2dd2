import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { currentUser } from '../auth/access';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { forbidden } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import { CalculatorQuery, DefaultsReply, GearDefaultsReply, GearTable, LicenseReply, PrivateOutput, UpdateDefaultsBody } from './schema';
import { calculatorAccess, computeFor, gearDefaults, privateGearTable, privateSettings, requirePrivate, updateAndView } from './service';

const tags = ['Калькулятор'];

/** Lets through only an administrator of the owner organisation. */
const requireCalculatorAdmin =
  (db: Db): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!(await calculatorAccess(db, currentUser(c))).canEdit)
      throw forbidden('Изменять настройки калькулятора может только администратор организации-владельца');
    await next();
  };

/** The provider's side of the calculator: private output, gear, settings (members of the owner organisation) and their update (its admins). */
export function calculatorOwnerRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

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
      return c.json((await computeFor(db, c.get('user'), c.req.valid('query'))).private, 200);
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
    async (c) => c.json(await privateGearTable(db, c.get('user'), c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_gear_defaults',
      tags,
      summary: 'Оборудование на складе и цены; флаги can_edit и can_view_private (без входа — оба false)',
      responses: { 200: json(GearDefaultsReply), ...errorResponses },
    }),
    async (c) => c.json(await gearDefaults(db, c.get('user')), 200),
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
      const { view, canEdit } = await privateSettings(db, c.get('user'));
      return c.json({ defaults: view.defaults, can_edit: canEdit }, 200);
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
      const { view, canEdit } = await privateSettings(db, c.get('user'));
      return c.json({ license: view.license, can_edit: canEdit }, 200);
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
      middleware: [requireCalculatorAdmin(db)] as const,
      request: { body: { content: { 'application/json': { schema: UpdateDefaultsBody } }, required: true } },
      responses: { 200: json(GearDefaultsReply.extend({ defaults: DefaultsReply.shape.defaults, license: LicenseReply.shape.license })), ...errorResponses },
    }),
    async (c) => c.json(await updateAndView(db, currentUser(c).id, c.req.valid('json')), 200),
  );
  return app;
}
