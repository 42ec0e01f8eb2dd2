import { createRoute } from '@hono/zod-openapi';
import { requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { cancelFigures, computeFigures, eventFigures } from './figures.service';
import { EventFiguresPending, EventFiguresQuery, EventFiguresReply, EventFiguresWindowBody } from './schema';

const tags = ['Аналитика мероприятий'];
const conflictResponse = { 409: { description: 'Окно короткое или пересчёт не идёт', content: errorResponses[400].content } };

/**
 * The figures of a hall over a window (docs/event-analytics.md «API: цифры», «Цифры длинных окон»):
 * a short window computed per request, a long one stored by the job event_figures, its computation
 * queued again or cancelled. Reading and both actions — reports.read, as the figures themselves.
 */
export function eventFiguresRoutes(db: Db) {
  const app = createRouter();
  const readFigures = requireAccess(db, 'reports.read', structureFrom.query());
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/figures',
      tags,
      summary: 'Цифры зала за окно (до 7 суток): посетители, заполненность, тепловые карты, пути, время в зонах, стенды, маршруты, входы в безопасные зоны',
      description:
        'Из законченных трекингов видео камер зала, пересекающих окно; треки камер без калибровки не входят в цифры плана (uncalibrated_cameras), только в тепловые карты кадра. ' +
        'Короткое окно считается по запросу (stored null); длинное — задачей event_figures и хранится: 200 — сохранённые цифры (stored.fresh false — устарели, пересчитываются), 202 — ещё ни разу не посчитаны, состояние задачи.',
      middleware: [readFigures] as const,
      request: { query: EventFiguresQuery },
      responses: { 200: json(EventFiguresReply), 202: json(EventFiguresPending), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const answer = await eventFigures(db, { structureId: q.structure_id, fromMs: q.from, toMs: q.to });
      return answer.ready ? c.json(answer.figures, 200) : c.json(answer.pending, 202);
    },
  );
  const writeFigures = requireAccess(db, 'reports.read', structureFrom.body());
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/figures/compute',
      tags,
      summary: 'Пересчитать цифры длинного окна задачей event_figures (после отмены или ошибки); свежие и уже идущие — не трогаются',
      description: '409 — окно короткое: его цифры считаются при каждом запросе.',
      middleware: [writeFigures] as const,
      request: jsonBody(EventFiguresWindowBody),
      responses: { 200: json(EventFiguresPending), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const body = c.req.valid('json');
      return c.json(await computeFigures(db, { structureId: body.structure_id, fromMs: body.from, toMs: body.to }), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/figures/cancel',
      tags,
      summary: 'Отменить пересчёт цифр длинного окна: задача сразу cancelled, сохранённые цифры остаются',
      description: '409 — пересчёт не идёт или окно короткое.',
      middleware: [writeFigures] as const,
      request: jsonBody(EventFiguresWindowBody),
      responses: { 200: json(EventFiguresPending), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const body = c.req.valid('json');
      return c.json(await cancelFigures(db, { structureId: body.structure_id, fromMs: body.from, toMs: body.to }), 200);
    },
  );

  return app;
}
