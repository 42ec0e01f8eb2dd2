import { createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import { sessionUser } from '../auth/service';
import { admitNewShareKey, findShareGrant, hashShareKey, INVALID_SHARE_KEY, lookUpShareKey, newShareKey, shareKeyOf } from '../auth/share-keys';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { badRequest, forbidden, unauthorized } from '../http/errors';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { insertShareKey } from '../report/share-keys.service';
import { liveBoard } from './board';
import { BOARD_STREAMS_PER_KEY, BOARD_STREAMS_PER_USER, boardHub } from './board.hub';
import { LiveBoard, LiveBoardQuery, LiveBoardShareBody, LiveBoardShareKey } from './board.schema';

const tags = ['Доска «Смена сейчас»'];

/**
 * A board key is a share key of kind 'live_board' (share_keys, the same limits, revocation by
 * DELETE /api/v1/share/{key}); it opens the live board of its structure and nothing else. Its window
 * is not used: [0, 0).
 */
const BOARD_KEY_WINDOW = { from: 0, to: 0 } as const;
const BOARD_KIND = 'live_board';

export const NOT_A_BOARD_KEY = 'Эта ссылка открывает доску другой структурной единицы';
export const BOARD_CLOSED_SIGNED_OUT = 'Сеанс завершён: войдите снова, чтобы видеть доску.';
export const BOARD_CLOSED_KEY_REVOKED = 'Ссылка недействительна или отозвана';

/** How often an open stream checks that its session or key still holds (a sign-out or a revoked key closes it within this). */
const PRINCIPAL_CHECK_MS = 5000;
/** A comment this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** EventSource waits this long before reconnecting after a cut. */
const RECONNECT_MS = 2000;

/**
 * Who may see the board: a share key of the board (read-only, no sign-in; 401 for an unknown or
 * revoked key or one of another kind, 403 for another structure), else a signed-in user with the report
 * right on a structure of their organisation (auth/access.ts). Runs before the query is parsed.
 */
function boardAccess(db: AppDeps['db']): MiddlewareHandler<AppEnv> {
  const asUser = requireAccess(db, 'reports.read', structureFrom.query());
  return async (c, next) => {
    const key = shareKeyOf(c);
    if (key === null) return asUser(c, next);
    if (key.length > 200) throw badRequest('key: не длиннее 200 символов');
    // A key of another kind (a report's, an event's) is no board key: the same refusal as an unknown one.
    const grant = await lookUpShareKey(c, db, key, BOARD_KIND);
    if (!grant) throw unauthorized(INVALID_SHARE_KEY);
    const asked = c.req.query('structure_id');
    if (asked !== undefined && asked !== String(grant.structureId)) throw forbidden(NOT_A_BOARD_KEY);
    c.set('structureId', grant.structureId);
    await next();
  };
}

/** Whom a request's stream counts under, and how to ask whether it still may watch. */
function principalOf(c: Context<AppEnv>, deps: Pick<AppDeps, 'db' | 'auth'>) {
  const key = shareKeyOf(c);
  if (key !== null) {
    return {
      principal: `key:${hashShareKey(key)}`,
      readOnly: true,
      limit: BOARD_STREAMS_PER_KEY,
      alive: async () => ((await findShareGrant(deps.db, key))?.kind === BOARD_KIND ? null : BOARD_CLOSED_KEY_REVOKED),
    };
  }
  const user = currentUser(c);
  const headers = new Headers(c.req.raw.headers);
  return {
    principal: `user:${user.id}`,
    readOnly: false,
    limit: BOARD_STREAMS_PER_USER,
    alive: async () => ((await sessionUser(deps, headers))?.id === user.id ? null : BOARD_CLOSED_SIGNED_OUT),
  };
}

/** The live board «Смена сейчас»: its state, its stream of changes (Server-Sent Events) and its share link (issue 45). */
export function liveBoardRoutes(deps: Pick<AppDeps, 'db' | 'auth' | 'config' | 'storage'>) {
  const { db, config } = deps;
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/live_board',
      tags,
      summary: 'Доска «Смена сейчас»: текущая операция, смена до сих пор и камеры каждого рабочего места',
      middleware: [boardAccess(db)] as const,
      request: { query: LiveBoardQuery },
      responses: { 200: json(LiveBoard), ...errorResponses },
    }),
    async (c) => c.json(await liveBoard(deps, c.get('structureId'), shareKeyOf(c) !== null), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/live_board/events',
      tags,
      summary: 'Поток изменений доски (text/event-stream): событие board — состояние доски, closed — сеанс или ссылка закончились',
      middleware: [boardAccess(db)] as const,
      request: { query: LiveBoardQuery },
      responses: {
        200: { description: 'События board (JSON LiveBoard) и closed ({ message })', content: { 'text/event-stream': { schema: z.string() } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const structureId = c.get('structureId');
      const who = principalOf(c, deps);
      let sequence = 0;
      let stream: Parameters<Parameters<typeof streamSSE>[1]>[0] | null = null;
      const backlog: { event: string; data: string }[] = [];
      const send = (event: string, data: string) => {
        if (stream) void stream.writeSSE({ event, data, id: String(++sequence), retry: RECONNECT_MS }).catch(() => {});
        else backlog.push({ event, data });
      };
      // Subscribed before the stream starts, so that a refusal (too many screens) is a plain 429.
      const unsubscribe = boardHub(deps).subscribe(
        structureId,
        {
          principal: who.principal,
          readOnly: who.readOnly,
          push: (state) => send('board', JSON.stringify(state)),
          fail: (message) => send('failure', JSON.stringify({ message })),
        },
        who.limit,
      );
      return streamSSE(c, async (sse) => {
        stream = sse;
        sse.onAbort(unsubscribe);
        try {
          for (const { event, data } of backlog.splice(0)) await sse.writeSSE({ event, data, id: String(++sequence), retry: RECONNECT_MS });
          let quiet = 0;
          while (!sse.aborted && !sse.closed) {
            await sse.sleep(PRINCIPAL_CHECK_MS);
            const ended = await who.alive();
            if (ended) {
              await sse.writeSSE({ event: 'closed', data: JSON.stringify({ message: ended }) });
              return;
            }
            quiet += PRINCIPAL_CHECK_MS;
            if (quiet >= HEARTBEAT_MS) {
              quiet = 0;
              await sse.write(': связь есть\n\n');
            }
          }
        } finally {
          unsubscribe();
        }
      }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/live_board/share',
      tags,
      summary: 'Создать ссылку «поделиться» на доску: без входа, только чтение (отзыв — DELETE /api/v1/share/{key})',
      middleware: [requireAccess(db, 'reports.read', structureFrom.body())] as const,
      request: { ...jsonBody(LiveBoardShareBody) },
      responses: { 200: json(LiveBoardShareKey), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      await admitNewShareKey(db, user.id, config.shareKeys);
      const key = newShareKey();
      await insertShareKey(db, { keyHash: hashShareKey(key), structureId: c.get('structureId'), ...BOARD_KEY_WINDOW, createdBy: user.id, kind: BOARD_KIND });
      return c.json({ key }, 200);
    },
  );
  return app;
}
