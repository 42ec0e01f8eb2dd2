import { sql } from 'kysely';
import { precompiled, type Db } from '../db/database';
import type { Role } from '../db/schema';
import type { SessionUser } from '../http/env';
import { ApiError, badRequest, conflict } from '../http/errors';
import type { Auth } from './auth';
import { hashSessionToken } from './session-tokens';
import { LOOK_ALIKE_LOGIN, loginSkeleton } from './login-skeleton';
import { LOGIN_MAX_LENGTH, LOGIN_TOO_LONG, NAME_MAX_LENGTH, NAME_TOO_LONG, PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG } from './limits';

export interface Registration {
  login: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const FILL_ALL_FIELDS = 'Заполните все поля';

/** Refuses a login that reads the same on screen as an existing one (see login-skeleton.ts). */
async function refuseLookAlikeLogin(db: Db, login: string) {
  const skeleton = loginSkeleton(login);
  // A full scan: one install has at most thousands of users, and registration is rare.
  const logins = await db.selectFrom('user').select('username').where('username', 'is not', null).execute();
  if (logins.some((row) => loginSkeleton(row.username!) === skeleton)) throw conflict(LOOK_ALIKE_LOGIN);
}

/**
 * Creates a user. Without `organizationId` the user gets a new organisation of their own and is
 * its admin (self-registration); the demo seed and admins pass an organisation and a role.
 */
export async function registerUser(
  deps: { db: Db; auth: Auth },
  input: Registration,
  membership?: { organizationId: number; role: Role },
): Promise<SessionUser> {
  const login = input.login.trim();
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  if (!login || !firstName || !lastName || !input.password) throw badRequest(FILL_ALL_FIELDS);
  if (!/^[\p{L}\p{N}_.-]+$/u.test(login)) {
    throw badRequest('Логин может содержать только буквы, цифры и символы _ . -');
  }
  if (login.length > LOGIN_MAX_LENGTH) throw badRequest(LOGIN_TOO_LONG);
  if (firstName.length > NAME_MAX_LENGTH || lastName.length > NAME_MAX_LENGTH) throw badRequest(NAME_TOO_LONG);
  if (input.password.length < 8) throw badRequest('Пароль должен быть не короче 8 символов');
  if (input.password.length > PASSWORD_MAX_LENGTH) throw badRequest(PASSWORD_TOO_LONG);
  const taken = await deps.db.selectFrom('user').select('id').where('username', '=', login.toLowerCase()).executeTakeFirst();
  if (taken) throw conflict('Пользователь с таким логином уже существует');
  await refuseLookAlikeLogin(deps.db, login);

  let created;
  try {
    created = await deps.auth.api.signUpEmail({
      body: {
        // better-auth requires an email; logins are the identity here, so a reserved domain is used.
        email: `user-${crypto.randomUUID()}@users.invalid`,
        name: `${firstName} ${lastName}`,
        password: input.password,
        username: login,
        firstName,
        lastName,
      },
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ApiError(400, 'registration_failed', `Не удалось зарегистрироваться: ${message}`);
  }
  const userId = created.user.id;
  const now = Date.now();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      let organizationId = membership?.organizationId;
      if (organizationId === undefined) {
        const org = await trx
          .insertInto('organizations')
          .values({ name: `Организация ${login}`, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        organizationId = org.id;
      }
      const role = membership?.role ?? 'admin';
      await trx.insertInto('memberships').values({ user_id: userId, organization_id: organizationId, role, created_at: now }).execute();
      const org = await trx.selectFrom('organizations').select(['name', 'time_zone']).where('id', '=', organizationId).executeTakeFirstOrThrow();
      return { id: userId, login: login.toLowerCase(), firstName, lastName, role, organizationId, organizationName: org.name, timeZone: org.time_zone };
    });
  } catch (err) {
    // Never leave a user who cannot belong anywhere.
    await deps.db.deleteFrom('user').where('id', '=', userId).execute();
    throw err;
  }
}

/** A user's role in an organisation, or null when the user is not its member. */
export async function memberRole(db: Db, organizationId: number, userId: string): Promise<Role | null> {
  const row = await db.selectFrom('memberships').select('role').where('user_id', '=', userId).where('organization_id', '=', organizationId).executeTakeFirst();
  return row?.role ?? null;
}

/** A member's new role (admin/: the last administrator's check is the caller's). */
export async function setMemberRole(db: Db, userId: string, role: Role) {
  await db.updateTable('memberships').set({ role }).where('user_id', '=', userId).execute();
}

/**
 * Takes a user out of the organisation: the membership, sessions and password go, and the login
 * becomes free; the user row stays for the names on work already done. Run inside the caller's
 * transaction (admin/service.ts `removeUser`).
 */
export async function revokeMember(db: Db, userId: string) {
  await db.deleteFrom('memberships').where('user_id', '=', userId).execute();
  await sql`DELETE FROM "session" WHERE "userId" = ${userId}`.execute(db);
  await sql`DELETE FROM "account" WHERE "userId" = ${userId}`.execute(db);
  await db.updateTable('user').set({ username: null, displayUsername: null }).where('id', '=', userId).execute();
}

/**
 * Session cookies whose signature better-auth has checked, with the hash their token is stored
 * under. A signature cannot change, so each cookie is checked once per process; the session row
 * itself is read on every request (one cached statement), so a sign-out, a revoked session, a
 * deleted user or a changed role takes effect at once, in every process.
 */
const checkedCookies = new WeakMap<Auth, Map<string, string>>();
const CHECKED_COOKIES_MAX = 10_000;

interface SessionFacts {
  cookieName: string;
  /** A session whose expiry is closer than this must go through better-auth, which extends it. */
  refreshBelowMs: number;
}
const sessionFacts = new WeakMap<Auth, SessionFacts>();

async function factsOf(auth: Auth): Promise<SessionFacts> {
  let facts = sessionFacts.get(auth);
  if (!facts) {
    const context = await auth.$context;
    const { expiresIn = 7 * 86_400, updateAge = 86_400 } = context.options.session ?? {};
    facts = { cookieName: context.authCookies.sessionToken.name, refreshBelowMs: (expiresIn - updateAge) * 1000 };
    sessionFacts.set(auth, facts);
  }
  return facts;
}

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null;
  }
  return null;
}

/** The user of a stored session (by its token hash), with organisation and role: every request asks. */
const userOfSession = precompiled((db) =>
  db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .innerJoin('memberships', 'memberships.user_id', 'user.id')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select([
      'session.expiresAt',
      'user.id',
      'user.username',
      'user.firstName',
      'user.lastName',
      'memberships.role',
      'memberships.organization_id',
      'organizations.name',
      'organizations.time_zone',
    ])
    .where('session.token', '=', ''),
);

/**
 * The signed-in user with their organisation and role, or null. The first request of a session
 * cookie goes through better-auth (signature, expiry, extension); later ones read the session row
 * directly until it is due for extension, which better-auth then does.
 */
export async function sessionUser(deps: { db: Db; auth: Auth }, headers: Headers): Promise<SessionUser | null> {
  const facts = sessionFacts.get(deps.auth) ?? (await factsOf(deps.auth));
  const cookie = cookieValue(headers.get('cookie'), facts.cookieName);
  if (!cookie) return null;
  let checked = checkedCookies.get(deps.auth);
  if (!checked) checkedCookies.set(deps.auth, (checked = new Map()));
  const tokenHash = checked.get(cookie);
  if (tokenHash !== undefined) {
    const [row] = await userOfSession(deps.db, [tokenHash]);
    if (row && Date.parse(row.expiresAt) - Date.now() > facts.refreshBelowMs) {
      return {
        id: row.id,
        login: row.username ?? '',
        firstName: row.firstName,
        lastName: row.lastName,
        role: row.role,
        organizationId: row.organization_id,
        organizationName: row.name,
        timeZone: row.time_zone,
      };
    }
    checked.delete(cookie);
  }
  return checkedSessionUser(deps, headers, cookie, checked);
}

/** better-auth's full check; remembers the cookie when it holds. */
async function checkedSessionUser(deps: { db: Db; auth: Auth }, headers: Headers, cookie: string, checked: Map<string, string>): Promise<SessionUser | null> {
  const session = await deps.auth.api.getSession({ headers });
  if (!session) return null;
  const row = await deps.db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['memberships.role', 'memberships.organization_id', 'organizations.name', 'organizations.time_zone'])
    .where('memberships.user_id', '=', session.user.id)
    .executeTakeFirst();
  if (!row) return null;
  if (checked.size >= CHECKED_COOKIES_MAX) checked.delete(checked.keys().next().value!);
  checked.set(cookie, hashSessionToken(session.session.token));
  const user = session.user as typeof session.user & { username?: string; firstName: string; lastName: string };
  return {
    id: user.id,
    login: user.username ?? '',
    firstName: user.firstName,
    lastName: user.lastName,
    role: row.role,
    organizationId: row.organization_id,
    organizationName: row.name,
    timeZone: row.time_zone,
  };
}

/** Does the installation hold the demo organisation (GET /api/v1/instance)? */
export async function hasDemoOrganization(db: Db): Promise<boolean> {
  const demo = await db.selectFrom('organizations').select('id').where('is_demo', '=', 1).executeTakeFirst();
  return Boolean(demo);
}
