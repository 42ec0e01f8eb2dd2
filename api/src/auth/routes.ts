import { createRoute } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { storageFullCount } from '../db/database';
import { ApiError, badRequest, diskFull, errorBody } from '../http/errors';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { AppEnv, SessionUser } from '../http/env';
import { createRouter, ErrorSchema, errorResponses, json } from '../http/openapi';
import { CLIENT_IP_HEADER } from '../http/client-address';
import type { Auth } from './auth';
import { inOwnerOrganization } from './access';
import { isDemoStructure, readOrganization } from './organization.service';
import { findShareGrant, shareKeyOf } from './share-keys';
import { permissionsOf } from './permissions';
import { lockMessage, signInLockout } from './lockout';
import { sharedRateLimiter } from './rate-limits';
import { LoginBody, LoginQuery, MessageReply, RegistrationSchema, WhoAmI, InstanceInfo, InstanceQuery } from './schema';
import { hasDemoOrganization, registerUser } from './service';

const tags = ['Вход и регистрация'];
const registrationConflict = { description: 'Логин занят или слишком похож на существующий', content: { 'application/json': { schema: ErrorSchema } } };
const signInLocked = {
  description: 'Вход с этого адреса для логина временно закрыт: много неверных паролей',
  content: { 'application/json': { schema: ErrorSchema } },
};
const tooManyRegistrations = { description: 'Слишком много регистраций с этого адреса за час', content: { 'application/json': { schema: ErrorSchema } } };

/** What the sign-in calls are built with: the part of AppDeps (api/src/deps.ts) they use. */
interface AuthDeps {
  db: Db;
  auth: Auth;
  config: Config;
}

/**
 * Forwards to better-auth's own endpoint so the legacy GET calls share its rate limiting,
 * Origin check and cookie handling; returns its reply and the cookies it set.
 */
async function callAuth(deps: AuthDeps, c: Context<AppEnv>, path: string, body?: unknown): Promise<Response> {
  const headers = new Headers({ 'content-type': 'application/json', origin: deps.config.baseUrl });
  const cookie = c.req.header('cookie');
  if (cookie) headers.set('cookie', cookie);
  const ip = c.req.header(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  const request = new Request(new URL(`/api/auth${path}`, deps.config.baseUrl), {
    method: 'POST',
    headers,
    body: JSON.stringify(body ?? {}),
  });
  return deps.auth.handler(request);
}

function withCookies(target: Response, source: Response): Response {
  for (const cookie of source.headers.getSetCookie()) target.headers.append('set-cookie', cookie);
  return target;
}

async function signIn(deps: AuthDeps, c: Context<AppEnv>, login: string, password: string): Promise<Response> {
  if (!login.trim() || !password) throw new ApiError(400, 'bad_request', 'Введите логин и пароль');
  // Locked per login and address (auth/lockout.ts): refused before the password is checked.
  const address = c.req.header(CLIENT_IP_HEADER) ?? 'unknown';
  const lockout = signInLockout(deps.db);
  const locked = await lockout.lockedFor(login, address);
  if (locked > 0) throw lockedOut(c, locked);
  const fullBefore = storageFullCount(deps.db);
  const reply = await callAuth(deps, c, '/sign-in/username', { username: login.trim(), password });
  if (reply.status === 429) throw new ApiError(429, 'rate_limited', 'Слишком много попыток входа. Подождите минуту и попробуйте снова.');
  // better-auth answers a failed session write with a bare 500: a full disk must not read as a wrong password.
  if (reply.status >= 500 && storageFullCount(deps.db) > fullBefore) throw diskFull();
  if (reply.status === 401) {
    const delay = await lockout.failed(login, address);
    if (delay > 0) throw lockedOut(c, delay);
  }
  if (!reply.ok) throw new ApiError(401, 'invalid_credentials', 'Неверный логин или пароль');
  await lockout.succeeded(login, address);
  const { user } = (await reply.json()) as { user: { firstName: string; lastName: string } };
  return withCookies(c.json({ message: `Добро пожаловать, ${user.firstName} ${user.lastName}!`, first_name: user.firstName, last_name: user.lastName }), reply);
}

function lockedOut(c: Context<AppEnv>, ms: number): ApiError {
  c.header('retry-after', String(Math.ceil(ms / 1000)));
  return new ApiError(429, 'rate_limited', lockMessage(ms));
}

type RegistrationInput = { login: string; password: string; first_name: string; last_name: string };
type Limiter = ReturnType<typeof sharedRateLimiter>;

async function register(deps: AuthDeps, c: Context<AppEnv>, limiter: Limiter, input: RegistrationInput) {
  // better-auth's rate limiter never sees this path (signUpEmail is called directly), so it has its own.
  if (!(await limiter.take(c.req.header(CLIENT_IP_HEADER) ?? 'unknown'))) {
    throw new ApiError(429, 'rate_limited', 'Слишком много регистраций с этого адреса. Попробуйте снова через час.');
  }
  await registerUser(deps, { login: input.login, password: input.password, firstName: input.first_name, lastName: input.last_name });
  const signedIn = await callAuth(deps, c, '/sign-in/username', { username: input.login.trim(), password: input.password });
  return withCookies(c.json({ message: 'Регистрация прошла успешно' }), signedIn);
}

/**
 * The JSON POSTs answer anything else with our 400 (zod-openapi would say 415 in English, and
 * with no content type at all the handler got an empty object and failed with a 500).
 */
const jsonBodyOnly: MiddlewareHandler = async (c, next) => {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) throw badRequest('Тело запроса должно быть JSON (Content-Type: application/json)');
  await next();
};

/** The signed-in user, with what their role may do here (owner-only permissions inside the owner organisation). */
async function whoAmIReply(db: Db, user: SessionUser) {
  const [organization, owner] = await Promise.all([readOrganization(db, user.organizationId), inOwnerOrganization(db, user)]);
  return {
    first_name: user.firstName,
    last_name: user.lastName,
    login: user.login,
    role: user.role,
    permissions: permissionsOf(user.role, owner),
    organization: { id: organization.id, name: organization.name, time_zone: organization.time_zone, is_demo: organization.is_demo },
  };
}

export function authRoutes(deps: AuthDeps) {
  const app = createRouter();
  const registrations = sharedRateLimiter(deps.db, { scope: 'register', max: deps.config.registerPerHour, windowMs: 60 * 60 * 1000 });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/whoami',
      tags,
      summary: 'Текущий пользователь; без входа — ответ с полем error (так клиент узнаёт, что вход не выполнен)',
      responses: { 200: json(WhoAmI.or(ErrorSchema)) },
    }),
    async (c) => {
      const user = c.get('user');
      // "Not signed in" is an answer to this probe, not a failure: the contract reads the error field.
      if (!user) return c.json(errorBody('unauthorized', 'Вход не выполнен'), 200);
      return c.json(await whoAmIReply(deps.db, user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/login',
      tags,
      summary: 'Вход (устаревший вызов: пароль в строке запроса). PWA использует POST.',
      request: { query: LoginQuery },
      responses: { 200: json(MessageReply), 400: errorResponses[400], 401: errorResponses[401], 429: signInLocked },
    }),
    (c) => {
      const { email, password } = c.req.valid('query');
      return signIn(deps, c, email, password) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/login',
      tags,
      summary: 'Вход по логину и паролю',
      middleware: [jsonBodyOnly] as const,
      request: { body: { required: true, content: { 'application/json': { schema: LoginBody } } } },
      responses: { 200: json(MessageReply), 400: errorResponses[400], 401: errorResponses[401], 429: signInLocked },
    }),
    (c) => {
      const { login, password } = c.req.valid('json');
      return signIn(deps, c, login, password) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/register',
      tags,
      summary: 'Регистрация (устаревший вызов: пароль в строке запроса). PWA использует POST.',
      request: { query: RegistrationSchema },
      responses: { 200: json(MessageReply), 400: errorResponses[400], 409: registrationConflict, 429: tooManyRegistrations },
    }),
    (c) => register(deps, c, registrations, c.req.valid('query')) as never,
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v2/register',
      tags,
      summary: 'Регистрация: новый пользователь получает свою организацию',
      middleware: [jsonBodyOnly] as const,
      request: { body: { required: true, content: { 'application/json': { schema: RegistrationSchema } } } },
      responses: { 200: json(MessageReply), 400: errorResponses[400], 409: registrationConflict, 429: tooManyRegistrations },
    }),
    (c) => register(deps, c, registrations, c.req.valid('json')) as never,
  );

  app.openapi(createRoute({ method: 'get', path: '/api/v1/leave', tags, summary: 'Выход', responses: { 200: json(MessageReply) } }), async (c) => {
    const reply = await callAuth(deps, c, '/sign-out');
    return withCookies(c.json({ message: 'Вы вышли из системы' }, 200), reply) as never;
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/instance',
      tags: ['Система'],
      summary: 'Сведения об установке: есть ли демо-данные, адреса внешних сайтов (NORMA_LINK_*)',
      description:
        'demo: с ключом ссылки (key или заголовок x-norma-share-key) — открывает ли ключ отчёт демонстрационной организации; ' +
        'без ключа — есть ли в установке демонстрационная организация. Вошедшему пользователю PWA показывает признак из whoami (organization.is_demo).',
      request: { query: InstanceQuery },
      responses: { 200: json(InstanceInfo) },
    }),
    async (c) => {
      const key = shareKeyOf(c);
      const grant = key === null ? null : await findShareGrant(deps.db, key);
      const demo = key === null ? await hasDemoOrganization(deps.db) : grant !== null && (await isDemoStructure(deps.db, grant.structureId));
      return c.json({ demo, version: '0.1.0', links: deps.config.site.links }, 200);
    },
  );

  return app;
}
