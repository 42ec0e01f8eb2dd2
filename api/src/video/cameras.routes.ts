import { createRoute, z } from '@hono/zod-openapi';
import { requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { Camera, CameraAt, CameraQuery, CameraVideo, StructureQuery, VideosAtQuery } from './schema';
import { listCameras, listCameraVideos, videosAt } from './service';

const tags = ['Видео'];

/** A structure's cameras and their videos: by camera, and every camera's video at one moment (the synchronous player). */
export function videoCameraRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/videos',
      tags,
      summary: 'Видео камеры (по времени начала)',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraQuery())] as const,
      request: { query: CameraQuery },
      responses: { 200: json(z.array(CameraVideo)), ...errorResponses },
    }),
    async (c) => c.json(await listCameraVideos(db, c.req.valid('query').camera_id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/cameras',
      tags,
      summary: 'Камеры структурной единицы',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(Camera)), ...errorResponses },
    }),
    async (c) => c.json(await listCameras(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/videos_at',
      tags,
      summary: 'Для синхронного плеера: по каждой камере структуры — видео, идущее в момент at, и секунда в нём',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: VideosAtQuery },
      responses: { 200: json(z.array(CameraAt)), ...errorResponses },
    }),
    async (c) => c.json(await videosAt(db, c.get('structureId'), c.req.valid('query').at), 200),
  );
  return app;
}
