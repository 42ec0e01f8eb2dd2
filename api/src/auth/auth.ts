import { betterAuth } from 'better-auth';
import { username } from 'better-auth/plugins';
import type { Db } from '../db/database';
import { isPostgres } from '../db/postgres';
import { CLIENT_IP_HEADER } from '../http/client-address';
import { hashedSessionTokens } from './session-tokens';

export interface AuthOptions {
  db: Db;
  baseUrl: string;
  secret: string;
  signInPerMinute: number;
}

/**
 * better-auth with login ("username") + password. Sign-up over HTTP is disabled: accounts are
 * created by auth/service.ts, which also gives the user an organisation and a role. Session tokens
 * are stored hashed (session-tokens.ts).
 */
export function createAuth({ db, baseUrl, secret, signInPerMinute }: AuthOptions) {
  return betterAuth({
    appName: 'Norma',
    baseURL: baseUrl,
    basePath: '/api/auth',
    secret,
    database: { db, type: isPostgres(db) ? 'postgres' : 'sqlite' },
    // Not used by the PWA, and each one is a hole here: update-user lets a user rename their own
    // login (a viewer became «аdmin» with a Cyrillic «а») and set unbounded names; is-username-available
    // answers anyone, signed in or not, whether a login exists; change-email would change the identity.
    // With hashed session tokens (session-tokens.ts) list-sessions would hand out hashes that
    // revoke-session cannot use and revoke-other-sessions would silently revoke nothing; revoke-sessions
    // (all of the user's sessions) works and stays.
    disabledPaths: ['/sign-up/email', '/update-user', '/is-username-available', '/change-email', '/list-sessions', '/revoke-session', '/revoke-other-sessions'],
    emailAndPassword: {
      enabled: true,
      // registerUser signs nobody in: the register route signs in afterwards, admins create others.
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // argon2id via Bun: ~2x faster than the default scrypt here (see STACK-FACTS).
      password: {
        hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 }),
        verify: ({ hash, password }) => Bun.password.verify(password, hash),
      },
    },
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true },
        lastName: { type: 'string', required: true },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    plugins: [
      hashedSessionTokens(),
      username({
        minUsernameLength: 1,
        maxUsernameLength: 64,
        // Logins may be Cyrillic (the default validator allows only [a-zA-Z0-9_.]).
        usernameValidator: (login) => /^[\p{L}\p{N}_.-]+$/u.test(login),
      }),
    ],
    rateLimit: {
      enabled: true,
      // Several API processes share one PostgreSQL: their sign-in counters must be one (better-auth's
      // `rateLimit` table, created by getMigrations; one conditional UPDATE per attempt). SQLite has one
      // API process, whose memory is enough and costs no write per call.
      storage: isPostgres(db) ? 'database' : 'memory',
      window: 60,
      max: 300,
      customRules: { '/sign-in/username': { window: 60, max: signInPerMinute } },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
