import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { body, conflictResponse, normAccess, tags } from './route-spec';
import {
  NormApproveBody,
  NormApproveConflict,
  NormCard,
  NormCreateBody,
  NormDiff,
  NormDiffQuery,
  NormIdParam,
  NormList,
  NormListQuery,
  NormUpdateBody,
} from './schema';
import { approveDraft, createDraft, diffVersions, listVersions, readCard, updateDraft } from './service';

/** A structure's norm card versions: history, new draft, read, change a draft, approve it, compare versions. */
export function normCardRoutes(deps: Pick<AppDeps, 'db' | 'reportThreads'>) {
  const { db } = deps;
  const { readStructure, writeStructure, readCardAccess, writeCardAccess } = normAccess(db);
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norms',
      tags,
      summary: 'Версии карточки нормы структурной единицы (история)',
      middleware: [readStructure] as const,
      request: { query: NormListQuery },
      responses: { 200: json(NormList), ...errorResponses },
    }),
    async (c) => c.json(await listVersions(db, currentUser(c), c.get('structureId')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/norms',
      tags,
      summary: 'Новый черновик карточки нормы из окон отчётов',
      middleware: [writeStructure] as const,
      request: { query: NormListQuery, ...body(NormCreateBody) },
      responses: { 201: json(NormCard), ...errorResponses },
    }),
    async (c) => c.json(await createDraft(db, currentUser(c), c.get('structureId'), c.req.valid('json'), deps.reportThreads), 201),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norms/{id}',
      tags,
      summary: 'Карточка нормы (версия)',
      middleware: [readCardAccess] as const,
      request: { params: NormIdParam },
      responses: { 200: json(NormCard), ...errorResponses },
    }),
    async (c) => c.json(await readCard(db, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/norms/{id}',
      tags,
      summary: 'Изменить черновик: окна, состав единицы, партия, план, нормативы (утверждённая версия — 409)',
      middleware: [writeCardAccess] as const,
      request: { params: NormIdParam, ...body(NormUpdateBody) },
      responses: { 200: json(NormCard), ...errorResponses, ...conflictResponse },
    }),
    async (c) => c.json(await updateDraft(db, currentUser(c), c.req.valid('param').id, c.req.valid('json'), deps.reportThreads), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/norms/{id}/approve',
      tags,
      summary: 'Утвердить черновик с даты в прочитанной ревизии (администратор или аналитик с правом утверждения)',
      description:
        'Тело называет ревизию черновика, которую прочёл утверждающий (`revision` карточки). Черновик изменён после неё или уже утверждён — 409, ничего не утверждено, в `error.details.card` — карточка такой, какая она сейчас.',
      middleware: [writeCardAccess] as const,
      request: { params: NormIdParam, ...body(NormApproveBody) },
      responses: {
        200: json(NormCard),
        ...errorResponses,
        409: json(NormApproveConflict, 'Черновик изменён после прочитанной ревизии или уже утверждён: ничего не утверждено'),
      },
    }),
    async (c) => c.json(await approveDraft(db, currentUser(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norms/{id}/diff',
      tags,
      summary: 'Отличия версии от другой по каждому показателю (по умолчанию — от действующей)',
      middleware: [readCardAccess] as const,
      request: { params: NormIdParam, query: NormDiffQuery },
      responses: { 200: json(NormDiff), ...errorResponses },
    }),
    async (c) => c.json(await diffVersions(db, currentUser(c), c.req.valid('param').id, c.req.valid('query').against), 200),
  );
  return app;
}
