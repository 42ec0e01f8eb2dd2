import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import { admitNewShareKey, hashShareKey, INVALID_SHARE_KEY, lookUpShareKey, newShareKey } from '../auth/share-keys';
import type { AppDeps } from '../deps';
import { conflict, notFound } from '../http/errors';
import { createRouter, ErrorSchema, errorResponses, json, jsonBody, openToAll } from '../http/openapi';
import { toIso } from '../http/time';
import { insertShareKey, sharedStructure } from '../report/share-keys.service';
import { EventShareBody, EventShareReply, SharedEventFigures, SharedEventKeyParam } from './share.schema';
import { eventFigures, FIGURES_MESSAGES } from './figures.service';
import * as events from './service';

const tags = ['Аналитика мероприятий'];

/**
 * The share link of a hall's event analytics (issue 44, docs/event-analytics.md «Ссылка „поделиться“»):
 * the same share keys as the interactive report's (auth/share-keys.ts: 192 random bits, only the hash
 * stored, the same per-user limits, guessing limited per address, revoked by DELETE /api/v1/share/{key}),
 * of the kind 'event': such a key opens the figures of its hall and window and nothing else — not the
 * interactive report, not a video, not another hall; a report's key does not open these figures.
 */
export function eventShareRoutes({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/share',
      tags,
      summary: 'Создать ключ «поделиться» для цифр аналитики зала за окно: без входа, только чтение',
      middleware: [requireAccess(db, 'reports.read', structureFrom.body())] as const,
      request: jsonBody(EventShareBody),
      responses: {
        200: json(EventShareReply),
        ...errorResponses,
        409: { description: 'У пользователя уже предельное число действующих ссылок', content: { 'application/json': { schema: ErrorSchema } } },
        429: { description: 'Слишком много новых ссылок за час', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const user = currentUser(c);
      await admitNewShareKey(db, user.id, config.shareKeys);
      const key = newShareKey();
      await insertShareKey(db, {
        keyHash: hashShareKey(key),
        structureId: c.get('structureId'),
        from: body.from,
        to: body.to,
        createdBy: user.id,
        kind: 'event',
      });
      return c.json({ hash: key }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/shared/{key}',
      tags,
      summary: 'Цифры аналитики зала по ключу «поделиться» (без входа): зал, окно ключа, цифры и зоны',
      description:
        'Ключ другого рода (интерактивный отчёт), отозванный или неизвестный — 404 «Ссылка недействительна или отозвана». Длинное окно, цифры которого ещё ни разу не посчитаны, — 409 (задача уже поставлена).',
      middleware: [openToAll] as const,
      request: { params: SharedEventKeyParam },
      responses: {
        200: json(SharedEventFigures),
        ...errorResponses,
        409: { description: 'Цифры длинного окна ещё считаются', content: { 'application/json': { schema: ErrorSchema } } },
        429: { description: 'Слишком много недействительных ссылок с этого адреса', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const grant = await lookUpShareKey(c, db, c.req.valid('param').key, 'event');
      if (!grant) throw notFound(INVALID_SHARE_KEY);
      const [structure, answer, zones] = await Promise.all([
        sharedStructure(db, grant.structureId),
        eventFigures(db, { structureId: grant.structureId, fromMs: grant.from, toMs: grant.to }),
        events.listZones(db, grant.structureId),
      ]);
      // A long window never computed yet: the guest is told to come back (its stored figures, even stale, are shown).
      if (!answer.ready) throw conflict(FIGURES_MESSAGES.computing);
      const figures = answer.figures;
      return c.json(
        {
          structure_id: grant.structureId,
          structure_name: structure.name,
          time_zone: structure.time_zone,
          from: toIso(grant.from),
          to: toIso(grant.to),
          figures,
          zones: zones.zones,
        },
        200,
      );
    },
  );

  return app;
}
