import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { currentUser, requireAccess, structureFrom, videoOrStructureQuery } from '../auth/access';
import type { AppEnv } from '../http/env';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, ErrorSchema, json } from '../http/openapi';
import { humansAt } from './humans';
import {
  AbsoluteLocation,
  AbsoluteLocationBody,
  AbsoluteLocationsReply,
  ApplyingBody,
  ApplyingReply,
  DeletedReply,
  HumansQuery,
  HumansReply,
  IdParam,
  ModelItem,
  ModelsReply,
  MovableLocation,
  MovableLocationBody,
  MovableLocationsReply,
  MovablesBody,
  MovablesReply,
  StandLocation,
  StandLocationBody,
  StandLocationsReply,
  StandsBody,
  StandsReply,
  StructureIdQuery,
  TrainingBody,
  TrainingReply,
  VideoArea,
  VideoAreaBody,
  VideoAreasReply,
  VideoIdQuery,
  VideoOrStructureQuery,
} from './schema';
import * as vision from './service';

const tags = ['Модели и локации'];
const body = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });
const unusable = { 422: { description: 'Файл модели или детектора не читается', content: { 'application/json': { schema: ErrorSchema } } } } as const;

/**
 * Spec 02 §7 "Models, areas, locations" (docs/vision.md). Reading needs any role of the
 * organisation; training, applying and editing need workspace.write (administrator, analyst).
 * Every id is looked up inside the caller's organisation: a foreign one answers 404.
 */
export function visionRoutes(deps: AppDeps) {
  const { db, storage, config } = deps;
  const app = createRouter();
  const read = requireAccess(db, 'workspace.read');
  const readVideo = requireAccess(db, 'workspace.read', structureFrom.videoQuery());
  const write = requireAccess(db, 'workspace.write');
  const route = <M extends 'get' | 'post' | 'delete', P extends string>(method: M, path: P, summary: string, middleware: MiddlewareHandler<AppEnv>) => ({
    method,
    path,
    tags,
    summary,
    middleware,
  });

  // ——— models ———
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/models', 'Модели камеры этого видео: ход обучения, операции, области, отчёт', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(ModelsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listModels(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/model/{id}', 'Модель: имя, состояние и отчёт обучения', read),
      request: { params: IdParam },
      responses: { 200: json(ModelItem), ...errorResponses },
    }),
    async (c) => c.json(await vision.getModel(db, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/model/{id}/onnx', 'Файл ONNX обученной модели (вывод в браузере; описание признаков — в метаданных norma_vision_spec)', read),
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
      ...route('delete', '/api/v1/model/{id}', 'Удалить модель и её файл (идущее обучение или применение останавливается)', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.deleteModel(db, storage, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/start_marker_training', 'Поставить обучение модели в очередь; ответ — номер модели', write),
      request: body(TrainingBody),
      responses: { 200: json(TrainingReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.startTraining(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/start_marker_applying', 'Применить обученную модель к отрезку видео той же камеры (разметка от имени модели)', write),
      request: body(ApplyingBody),
      responses: { 200: json(ApplyingReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.startApplying(db, currentUser(c), c.req.valid('json')), 200),
  );

  // ——— video areas ———
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/video-areas', 'Области камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(VideoAreasReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listAreas(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/video-area', 'Добавить область камеры (прямоугольник в пикселях кадра)', write),
      request: body(VideoAreaBody),
      responses: { 200: json(VideoArea), ...errorResponses },
    }),
    async (c) => c.json(await vision.addArea(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('delete', '/api/v1/video-area/{id}', 'Удалить область', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.deleteArea(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ——— stands and absolute locations ———
  app.openapi(
    createRoute({
      ...route(
        'get',
        '/api/v1/all_stands',
        'Стенды и базисы организации (у базиса — точка в структуре)',
        requireAccess(db, 'workspace.read', videoOrStructureQuery),
      ),
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(StandsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listStands(db, currentUser(c), c.get('structureId') ?? null), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/stands', 'Добавить, переименовать и удалить стенды и базисы', write),
      request: body(StandsBody),
      responses: { 200: json(StandsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.saveStands(db, currentUser(c), c.req.valid('json'), null), 200),
  );
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/absolute_locations', 'Абсолютные локации стендов структуры', requireAccess(db, 'workspace.read', structureFrom.query())),
      request: { query: StructureIdQuery },
      responses: { 200: json(AbsoluteLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listAbsoluteLocations(db, c.req.valid('query').structure_id), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/absolute_location', 'Добавить абсолютную локацию стенда', write),
      request: body(AbsoluteLocationBody),
      responses: { 200: json(AbsoluteLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addAbsoluteLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('delete', '/api/v1/absolute_location/remove/{id}', 'Удалить абсолютную локацию', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeAbsoluteLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ——— stand locations on a camera ———
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/stand_locations', 'Точки стендов на кадре камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(StandLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listStandLocations(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/stand_location', 'Отметить стенд точкой на кадре камеры', write),
      request: body(StandLocationBody),
      responses: { 200: json(StandLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addStandLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('delete', '/api/v1/stand_location/remove/{id}', 'Удалить точку стенда', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeStandLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ——— movables and their locations ———
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/movables', 'Подвижные объекты организации', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(MovablesReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listMovables(db, currentUser(c)), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/movables', 'Добавить, переименовать и удалить подвижные объекты (вызов Norma: в спецификации их некуда завести)', write),
      request: body(MovablesBody),
      responses: { 200: json(MovablesReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.saveMovables(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('get', '/api/v1/movable_locations', 'Прямоугольники подвижных объектов на кадре камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(MovableLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listMovableLocations(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...route('post', '/api/v1/movable_location', 'Отметить подвижный объект прямоугольником на кадре камеры', write),
      request: body(MovableLocationBody),
      responses: { 200: json(MovableLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addMovableLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...route('delete', '/api/v1/movable_location/remove/{id}', 'Удалить прямоугольник подвижного объекта', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeMovableLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ——— people on a frame ———
  app.openapi(
    createRoute({
      ...route(
        'get',
        '/api/v1/humans',
        'Люди на кадре: MoveNet (люди и позы), вычитание фона и пятна или ONNX-детектор из хранилища моделей (поле detector)',
        readVideo,
      ),
      request: { query: HumansQuery },
      responses: { 200: json(HumansReply), ...errorResponses, ...unusable },
    }),
    async (c) => {
      const { video_id, second, detector } = c.req.valid('query');
      return c.json(await humansAt(db, storage, currentUser(c), video_id, second, detector ?? config.humanDetector, deps.movenetThread), 200);
    },
  );

  return app;
}
