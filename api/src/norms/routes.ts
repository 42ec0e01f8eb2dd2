import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { forbidden } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import {
  ApproverParam,
  Fulfilment,
  FulfilmentQuery,
  LineScenarioBody,
  LineScenarios,
  NormApproveBody,
  NormApprovers,
  NormCard,
  NormCreateBody,
  NormDiff,
  NormDiffQuery,
  NormIdParam,
  NormList,
  NormListQuery,
  NormUpdateBody,
} from './schema';
import { normFulfilment } from './fulfilment';
import {
  approveDraft,
  canApprove,
  createDraft,
  diffVersions,
  grantApprover,
  listApprovers,
  listScenarios,
  listVersions,
  readCard,
  revokeApprover,
  saveScenario,
  structureOfCard,
  updateDraft,
} from './service';

const tags = ['Нормы'];
const conflictResponse = {
  409: {
    description: 'Версия утверждена и не изменяется',
    content: { 'application/json': { schema: errorResponses[400].content['application/json'].schema } },
  },
};
const body = <S extends typeof NormCreateBody | typeof NormUpdateBody | typeof NormApproveBody | typeof LineScenarioBody>(schema: S) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

/**
 * Norm cards (issue 29, docs/norms.md): read by everyone who reads reports; drafts are built and
 * changed by admins and analysts (workspace.write); approval needs the right to approve norms.
 */
export function normRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = createRouter();
  const readStructure = requireAccess(db, 'reports.read', structureFrom.query());
  const writeStructure = requireAccess(db, 'workspace.write', structureFrom.query());
  const readCardAccess = requireAccess(db, 'reports.read', structureOfCard);
  const writeCardAccess = requireAccess(db, 'workspace.write', structureOfCard);

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
      summary: 'Утвердить черновик с даты (администратор или аналитик с правом утверждения)',
      middleware: [writeCardAccess] as const,
      request: { params: NormIdParam, ...body(NormApproveBody) },
      responses: { 200: json(NormCard), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const user = currentUser(c);
      if (!(await canApprove(db, user))) throw forbidden('Утверждать нормы может администратор или аналитик, которому администратор дал это право');
      return c.json(await approveDraft(db, user, c.req.valid('param').id, c.req.valid('json')), 200);
    },
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

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norms/{id}/line_scenarios',
      tags,
      summary: 'Сохранённые сценарии баланса линии карточки',
      middleware: [readCardAccess] as const,
      request: { params: NormIdParam },
      responses: { 200: json(LineScenarios), ...errorResponses },
    }),
    async (c) => c.json(await listScenarios(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/norms/{id}/line_scenarios',
      tags,
      summary: 'Сохранить сценарий баланса линии (распределение операций по рабочим местам и потребность)',
      description: 'Сценарий — не часть нормы: его можно сохранить и у утверждённой версии.',
      middleware: [writeCardAccess] as const,
      request: { params: NormIdParam, ...body(LineScenarioBody) },
      responses: { 201: json(LineScenarios), ...errorResponses },
    }),
    async (c) => c.json(await saveScenario(db, currentUser(c), c.req.valid('param').id, c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norm_fulfilment',
      tags,
      summary: 'Выполнение норм за окно: по сотрудникам и сменам, и циклы, далёкие от нормы',
      middleware: [readStructure] as const,
      request: { query: FulfilmentQuery },
      responses: { 200: json(Fulfilment), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const structureId = c.get('structureId');
      // On a report thread when the server has them (main.ts): each shift-day of the window is balanced.
      if (deps.reportThreads)
        return c.body(await deps.reportThreads.run({ task: 'normFulfilment', structureId, from: q.from_time, to: q.to_time, employeeId: q.employee_id }), 200, {
          'content-type': 'application/json',
        }) as never;
      return c.json(await normFulfilment(db, structureId, q.from_time, q.to_time, q.employee_id), 200);
    },
  );

  const adminOnly = requireAccess(db, 'organization.admin');
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norm_approvers',
      tags,
      summary: 'Аналитики с правом утверждать нормы (администратор)',
      middleware: [adminOnly] as const,
      responses: { 200: json(NormApprovers), ...errorResponses },
    }),
    async (c) => c.json(await listApprovers(db, currentUser(c).organizationId), 200),
  );
  for (const method of ['put', 'delete'] as const) {
    app.openapi(
      createRoute({
        method,
        path: '/api/v1/norm_approvers/{userId}',
        tags,
        summary: method === 'put' ? 'Дать аналитику право утверждать нормы' : 'Забрать право утверждать нормы',
        middleware: [adminOnly] as const,
        request: { params: ApproverParam },
        responses: { 200: json(NormApprovers), ...errorResponses },
      }),
      async (c) => {
        const user = currentUser(c);
        const { userId } = c.req.valid('param');
        return c.json(method === 'put' ? await grantApprover(db, user, userId) : await revokeApprover(db, user, userId), 200);
      },
    );
  }

  return app;
}
