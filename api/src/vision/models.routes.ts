import { createRoute, z } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { visionAccess, visionRoute } from './route-spec';
import { ApplyingBody, ApplyingReply, DeletedReply, IdParam, ModelItem, ModelsReply, TrainingBody, TrainingReply, VideoIdQuery } from './schema';
import * as vision from './service';

/** Trained models of a camera: list, read, the ONNX file, delete, start training and applying. */
export function visionModelRoutes({ db, storage }: Pick<AppDeps, 'db' | 'storage'>) {
  const app = createRouter();
  const { read, readVideo, write } = visionAccess(db);

  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/models', 'Модели камеры этого видео: ход обучения, операции, области, отчёт', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(ModelsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listModels(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/model/{id}', 'Модель: имя, состояние и отчёт обучения', read),
      request: { params: IdParam },
      responses: { 200: json(ModelItem), ...errorResponses },
    }),
    async (c) => c.json(await vision.getModel(db, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute(
        'get',
        '/api/v1/model/{id}/onnx',
        'Файл ONNX обученной модели (вывод в браузере; описание признаков — в метаданных norma_vision_spec)',
        read,
      ),
      request: { params: IdParam },
      responses: {
        200: { description: 'Файл ONNX', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const file = await vision.modelFile(db, storage, currentUser(c), c.req.valid('param').id);
      // A bucket's file is no Response body in Bun; its stream is (as in video/stream.ts).
      return new Response(storage.isLocal ? file : file.stream(), {
        headers: { 'content-type': 'application/octet-stream', 'cache-control': 'private, no-cache' },
      }) as never;
    },
  );
  app.openapi(
    createRoute({
      ...visionRoute('delete', '/api/v1/model/{id}', 'Удалить модель и её файл (идущее обучение или применение останавливается)', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.deleteModel(db, storage, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/start_marker_training', 'Поставить обучение модели в очередь; ответ — номер модели', write),
      request: jsonBody(TrainingBody),
      responses: { 200: json(TrainingReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.startTraining(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/start_marker_applying', 'Применить обученную модель к отрезку видео той же камеры (разметка от имени модели)', write),
      request: jsonBody(ApplyingBody),
      responses: { 200: json(ApplyingReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.startApplying(db, currentUser(c), c.req.valid('json')), 200),
  );
  return app;
}
