import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { cameraHealth } from './health';
import { liveLabels, setCameraLiveModel } from './live-labels';
import { liveModelChoices } from './live-labels.service';
import {
  CameraIdParam,
  CameraStream,
  LiveLabels,
  LiveLabelsQuery,
  LiveModelBody,
  LiveModelChoices,
  RecordingGap,
  RecordingGapsQuery,
  StreamCheck,
  StreamCheckBody,
  StreamSettingsBody,
  StructureHealthReply,
  StructureIdParam,
} from './schema';
import { listGaps } from './service';
import { checkCameraStream, readStream, saveStream } from './stream';

const tags = ['Камеры: поток'];

/** A camera's RTSP stream: settings (address masked in every reply), a check with a frame, the gaps of its recording (issue 45). */
export function liveRoutes({ db, storage }: Pick<AppDeps, 'db' | 'storage'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/camera/{id}/stream',
      tags,
      summary: 'Поток камеры: настройки и состояние записи (пароль в адресе скрыт)',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam },
      responses: { 200: json(CameraStream.nullable()), ...errorResponses },
    }),
    async (c) => c.json(await readStream(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/camera/{id}/stream',
      tags,
      summary: 'Задать поток камеры (rtsp:// или rtsps://), длину отрезка записи и срок хранения',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam, ...jsonBody(StreamSettingsBody) },
      responses: { 200: json(CameraStream), ...errorResponses },
    }),
    async (c) => c.json(await saveStream(db, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/camera/{id}/stream/check',
      tags,
      summary: 'Проверить поток: кодек, размер кадра, частота и снимок кадра; 422 — почему не открылся',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam, ...jsonBody(StreamCheckBody) },
      responses: { 200: json(StreamCheck), ...errorResponses },
    }),
    async (c) => c.json(await checkCameraStream(db, c.req.valid('param').id, c.req.valid('json').url), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/camera/{id}/recording_gaps',
      tags,
      summary: 'Промежутки без записи потока камеры (мс UTC), по началу',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam, query: RecordingGapsQuery },
      responses: { 200: json(z.array(RecordingGap)), ...errorResponses },
    }),
    async (c) => {
      const { from, to } = c.req.valid('query');
      return c.json(await listGaps(db, c.req.valid('param').id, from, to), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/camera/{id}/live_model',
      tags,
      summary: 'Живая разметка: модель этой камеры, которая размечает каждый закрытый отрезок записи (null — выключить)',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam, ...jsonBody(LiveModelBody) },
      responses: { 200: json(CameraStream), ...errorResponses },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      await setCameraLiveModel(db, currentUser(c).organizationId, id, c.req.valid('json'));
      return c.json((await readStream(db, id))!, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/camera/{id}/live_model_choices',
      tags,
      summary: 'Живая разметка: обученные модели этой камеры и сотрудники её структурной единицы — из чего выбирать',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam },
      responses: { 200: json(LiveModelChoices), ...errorResponses },
    }),
    async (c) => c.json(await liveModelChoices(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/camera/{id}/live_labels',
      tags,
      summary: 'Живая разметка: последние отрезки записи, их задачи разметки и задержка «кадр → метка» (p95)',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraParam())] as const,
      request: { params: CameraIdParam, query: LiveLabelsQuery },
      responses: { 200: json(LiveLabels), ...errorResponses },
    }),
    async (c) => {
      return c.json(await liveLabels(db, c.req.valid('param').id, c.req.valid('query').limit ?? 50), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/structure/{id}/camera_health',
      tags,
      summary: 'Здоровье камер структурной единицы и тревоги: не в сети, регистратор отстаёт, диск почти полон',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.param('id'))] as const,
      request: { params: StructureIdParam },
      responses: { 200: json(StructureHealthReply), ...errorResponses },
    }),
    async (c) => c.json(await cameraHealth({ db, storage }, c.get('structureId')), 200),
  );
  return app;
}
