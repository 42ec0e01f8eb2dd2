import { createRoute, z } from '@hono/zod-openapi';
import { writeMot } from '@norma/workers/tracking';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { contentDisposition } from '../http/content-disposition';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { eventPlaceRoutes } from './places.routes';
import { eventFiguresRoutes } from './figures.routes';
import {
  EventTracksQuery,
  EventTracksReply,
  EventVideoQuery,
  HallTrackingsQuery,
  HallTrackingsReply,
  TrackingBody,
  TrackingCancelBody,
  TrackingReply,
} from './schema';
import * as events from './service';

const tags = ['Аналитика мероприятий'];
const conflictResponse = { 409: { description: 'Трекинг уже идёт или отменять нечего', content: errorResponses[400].content } };

/**
 * Event analytics (issue 44, docs/api.md «Аналитика мероприятий»): the tracking job of a video and
 * its tracks (JSON, MOTChallenge text), a camera's floor calibration, a hall's zones. Reading —
 * every role of the organisation; starting, cancelling and editing — administrators and analysts
 * (workspace.write), as with stands.
 */
export function eventRoutes({ db }: AppDeps) {
  const app = createRouter();
  const readVideo = requireAccess(db, 'workspace.read', structureFrom.videoQuery());
  const writeVideo = requireAccess(db, 'workspace.write', structureFrom.videoQueryOrBody());

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/tracking',
      tags,
      summary: 'Запустить трекинг людей по видео (задача event_tracking): прогресс и итог — GET /api/v1/event/tracking',
      description: '409 — трекинг этого видео уже идёт или видео ещё не обработано. Новый законченный трекинг заменяет прежний.',
      middleware: [writeVideo] as const,
      request: jsonBody(TrackingBody),
      responses: { 200: json(TrackingReply), ...errorResponses, ...conflictResponse },
    }),
    async (c) => c.json(await events.startTracking(db, currentUser(c), c.req.valid('json'), events.RUN_SETTINGS), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/tracking',
      tags,
      summary: 'Трекинг видео: последний запуск (состояние, прогресс, настройки, итоги, ошибка) и последний законченный',
      middleware: [readVideo] as const,
      request: { query: EventVideoQuery },
      responses: { 200: json(TrackingReply), ...errorResponses },
    }),
    async (c) => c.json(await events.trackingState(db, c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/trackings',
      tags,
      summary: 'Трекинг всех видео зала одним вызовом: по каждому видео камер зала — последний запуск и последний законченный',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: HallTrackingsQuery },
      responses: { 200: json(HallTrackingsReply), ...errorResponses },
    }),
    async (c) => c.json(await events.hallTrackings(db, c.get('structureId')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/tracking/cancel',
      tags,
      summary: 'Отменить идущий или ждущий трекинг видео: задача сразу cancelled, прежний законченный трекинг остаётся',
      middleware: [writeVideo] as const,
      request: jsonBody(TrackingCancelBody),
      responses: { 200: json(TrackingReply), ...errorResponses, ...conflictResponse },
    }),
    async (c) => c.json(await events.cancelTracking(db, currentUser(c), c.req.valid('json').video_id), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/tracks',
      tags,
      summary: 'Треки законченного трекинга видео, страницами по номеру трека; точки трека длиннее 600 прорежены равномерно',
      middleware: [readVideo] as const,
      request: { query: EventTracksQuery },
      responses: { 200: json(EventTracksReply), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(await events.tracksPage(db, query.video_id, query), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/tracks.mot',
      tags,
      summary: 'Треки законченного трекинга в формате MOTChallenge: frame,id,x,y,w,h,conf,-1,-1,-1, кадры видео с 1',
      middleware: [readVideo] as const,
      request: { query: EventVideoQuery },
      responses: {
        200: { description: 'Текст MOTChallenge', content: { 'text/plain': { schema: z.string() } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const videoId = c.req.valid('query').video_id;
      const { tracks } = await events.allTracks(db, videoId);
      const rows = tracks.flatMap((t) =>
        t.points.map(([frame, , x, y, w, h, score]) => ({ frame: frame! + 1, id: t.number, box: { x1: x!, y1: y!, x2: x! + w!, y2: y! + h! }, conf: score! })),
      );
      const base = (await events.videoFilename(db, currentUser(c), videoId)).replace(/\.[^.]*$/, '') || `video-${videoId}`;
      return new Response(writeMot(rows), {
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'content-disposition': contentDisposition(`${base}.mot.txt`),
        },
      }) as never;
    },
  );

  app.route('/', eventFiguresRoutes(db));
  app.route('/', eventPlaceRoutes(db));
  return app;
}
