import type { Db } from '../db/database';
import type { Role } from '../db/schema';
import { ApiError, badRequest, conflict } from '../http/errors';
import type { Auth } from './auth';
import { LOOK_ALIKE_LOGIN, loginSkeleton } from './login-skeleton';

export interface SessionUser {
  id: string;
  login: string;
  firstName: string;
  lastName: string;
  role: Role;
  organizationId: number;
  organizationName: string;
  timeZone: string;
}

export interface Registration {
  login: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const FILL_ALL_FIELDS = 'Заполните все поля';
export const LOGIN_MAX_LENGTH = 64;
export const NAME_MAX_LENGTH = 100;
export const PASSWORD_MAX_LENGTH = 128;
export const LOGIN_TOO_LONG = `Логин не длиннее ${LOGIN_MAX_LENGTH} символов`;
export const NAME_TOO_LONG = `Имя и фамилия — не длиннее ${NAME_MAX_LENGTH} символов`;
export const PASSWORD_TOO_LONG = `Пароль не длиннее ${PASSWORD_MAX_LENGTH} символов`;

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

/** The signed-in user with their organisation and role, or null. */
export async function sessionUser(deps: { db: Db; auth: Auth }, headers: Headers): Promise<SessionUser | null> {
  const session = await deps.auth.api.getSession({ headers });
  if (!session) return null;
  const row = await deps.db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['memberships.role', 'memberships.organization_id', 'organizations.name', 'organizations.time_zone'])
    .where('memberships.user_id', '=', session.user.id)
    .executeTakeFirst();
  if (!row) return null;
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
