import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { CalculatorQuery, DaysReply, MeasurementGraph, PublicOutput, RequiredMeasurementsQuery, RequiredMeasurementsReply } from './schema';
import { computeFor, measurementGraphFor, requiredMeasurements } from './service';

const tags = ['Калькулятор'];

/** The calculator open without signing in: required measurements, the public output, the stages' days, the measurement graph. */
export function calculatorPublicRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/required_measurements',
      tags,
      summary: 'Нормативный Ку и число необходимых замеров по типу производства (открыто без входа)',
      request: { query: RequiredMeasurementsQuery },
      responses: { 200: json(RequiredMeasurementsReply), ...errorResponses },
    }),
    async (c) => c.json(await requiredMeasurements(db, c.get('user'), c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_calculator_public_output',
      tags,
      summary: 'Публичный расчёт: замеры, стоимость, экономия, срок, камеры (открыто без входа)',
      request: { query: CalculatorQuery },
      responses: { 200: json(PublicOutput), ...errorResponses },
    }),
    async (c) => c.json((await computeFor(db, c.get('user'), c.req.valid('query'))).public, 200),
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
    async (c) => c.json((await computeFor(db, c.get('user'), c.req.valid('query'))).days, 200),
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
    async (c) => c.json(await measurementGraphFor(db, c.get('user'), c.req.valid('query')), 200),
  );
  return app;
}
