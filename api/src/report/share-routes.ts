import { createRoute, z } from '@hono/zod-openapi';
import { assertStructureInOrganization, currentUser, requireAccess, structureFrom } from '../auth/access';
import { roleAllows } from '../auth/roles';
import {
  admitNewShareKey,
  forgetShareKeyCreator,
  hashShareKey,
  lookUpShareKey,
  INVALID_SHARE_KEY,
  isWellFormedShareKey,
  newShareKey,
} from '../auth/share-keys';
import type { AppDeps } from '../deps';
import { forbidden, notFound } from '../http/errors';
import { toIso } from '../http/time';
import { createRouter, ErrorSchema, errorResponses, json } from '../http/openapi';
import { MessageReply } from '../auth/schema';
import { ReportWindowQuery, ResolvedShare, ShareHash } from './schema';
import { insertShareKey, revokeShareKey, shareKeyByHash, sharedStructure } from './share-keys.service';

const tags = ['Отчёты'];

export const LINK_REVOKED = 'Ссылка отозвана';

const KeyParam = z.object({
  key: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'key', in: 'path' } }),
});

/**
 * Share keys for the interactive report (spec 01 §7 generate_hash, resolve_hash; DESIGN
 * "A share key … opens exactly one interactive report window read-only … revocable").
 * What a key opens is decided in auth/share-keys.ts. A user's keys are bounded (config.shareKeys:
 * live keys held and new keys an hour), and a request made with a key counts in the fair share of
 * heavy requests as its creator's (http/fair-share.ts), so keys multiply nothing.
 */
export function shareRoutes({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/generate_hash',
      tags,
      summary: 'Создать ключ «поделиться»: интерактивный отчёт этого окна без входа, только чтение',
      middleware: [requireAccess(db, 'reports.read', structureFrom.body())] as const,
      request: { body: { content: { 'application/json': { schema: ReportWindowQuery } }, required: true } },
      responses: {
        200: json(ShareHash),
        ...errorResponses,
        409: { description: 'У пользователя уже предельное число действующих ссылок', content: { 'application/json': { schema: ErrorSchema } } },
        429: { description: 'Слишком много новых ссылок за час', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      await admitNewShareKey(db, currentUser(c).id, config.shareKeys);
      const key = newShareKey();
      await insertShareKey(db, {
        keyHash: hashShareKey(key),
        structureId: c.get('structureId'),
        from: body.from_time,
        to: body.to_time,
        createdBy: currentUser(c).id,
      });
      return c.json({ hash: key }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/resolve_hash/{key}',
      tags,
      summary: 'Что открывает ключ: структурная единица и окно (без входа)',
      request: { params: KeyParam },
      responses: {
        200: json(ResolvedShare),
        404: errorResponses[404],
        429: { description: 'Слишком много недействительных ссылок с этого адреса', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const grant = await lookUpShareKey(c, db, c.req.valid('param').key);
      if (!grant) throw notFound(INVALID_SHARE_KEY);
      const structure = await sharedStructure(db, grant.structureId);
      return c.json(
        {
          structure_id: grant.structureId,
          from_time: toIso(grant.from),
          to_time: toIso(grant.to),
          structure_name: structure.name,
          time_zone: structure.time_zone,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/share/{key}',
      tags,
      summary: 'Отозвать ключ «поделиться» (его создатель или администратор организации)',
      middleware: [requireAccess(db, 'reports.read')] as const,
      request: { params: KeyParam },
      responses: { 200: json(MessageReply), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      const key = c.req.valid('param').key;
      const row = isWellFormedShareKey(key) ? await shareKeyByHash(db, hashShareKey(key)) : undefined;
      if (!row) throw notFound(INVALID_SHARE_KEY);
      await assertStructureInOrganization(db, user, row.structure_id);
      if (row.created_by !== user.id && !roleAllows(user.role, 'organization.admin')) {
        throw forbidden('Отозвать ссылку может тот, кто её создал, или администратор');
      }
      if (row.revoked_at === null) {
        await revokeShareKey(db, hashShareKey(key));
      }
      forgetShareKeyCreator(db, key);
      return c.json({ message: LINK_REVOKED }, 200);
    },
  );

  return app;
}
