import type { BetterAuthPlugin, DBAdapter } from 'better-auth';

/** What the database keeps instead of a session token: its SHA-256, hex. */
export function hashSessionToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex');
}

type Row = Record<string, unknown>;
type Where = { field: string; value: unknown };

/** The adapter calls that read or write rows; each takes `{ model, … }` as its one argument. */
const ROW_CALLS = new Set(['create', 'findOne', 'findMany', 'count', 'update', 'updateMany', 'delete', 'deleteMany', 'consumeOne', 'incrementOne']);

/**
 * Wraps better-auth's database adapter so the `session.token` column holds SHA-256(token): every
 * token written or looked up is hashed on the way in, and rows coming back carry the raw token the
 * caller asked with (better-auth compares it with the cookie and refreshes the cookie from it).
 * Rows found by other fields (a user's sessions) carry the hash, which opens nothing.
 */
function hashingAdapter<A extends Omit<DBAdapter, 'transaction'>>(adapter: A): A {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'transaction' && typeof value === 'function') {
        return (run: (trx: A) => Promise<unknown>) => value.call(target, (trx: A) => run(hashingAdapter(trx)));
      }
      if (typeof prop !== 'string' || !ROW_CALLS.has(prop) || typeof value !== 'function') return value;
      return async (args: Row & { model?: string }) => {
        if (args?.model !== 'session') return value.call(target, args);
        const rawOf = new Map<string, string>();
        const hash = (token: unknown) => {
          if (typeof token !== 'string') return token;
          const hashed = hashSessionToken(token);
          rawOf.set(hashed, token);
          return hashed;
        };
        const hashToken = (data: unknown) =>
          data && typeof data === 'object' && 'token' in data ? { ...(data as Row), token: hash((data as Row).token) } : data;
        const call: Row = { ...args };
        if (Array.isArray(args.where)) {
          call.where = (args.where as Where[]).map((w) =>
            w.field === 'token' ? { ...w, value: Array.isArray(w.value) ? w.value.map(hash) : hash(w.value) } : w,
          );
        }
        for (const key of ['data', 'update', 'set'] as const) if (key in args) call[key] = hashToken(args[key]);
        const restore = (row: unknown) => {
          if (!row || typeof row !== 'object' || typeof (row as Row).token !== 'string') return row;
          const raw = rawOf.get((row as Row).token as string);
          return raw === undefined ? row : { ...(row as Row), token: raw };
        };
        const result = await value.call(target, call);
        return Array.isArray(result) ? result.map(restore) : restore(result);
      };
    },
  });
}

/**
 * Session tokens are kept hashed, so a copy of DATA_DIR (database and signing secret) gives no
 * working session: the cookie carries the token, the database only its SHA-256. The plugin swaps
 * the adapter better-auth builds its internal adapter from; the database option stays a plain
 * Kysely instance, so better-auth's migrations keep working. Sessions stored before this (raw
 * tokens) no longer match: their users sign in once more.
 */
export function hashedSessionTokens(): BetterAuthPlugin {
  return {
    id: 'norma-hashed-session-tokens',
    init(ctx) {
      return { context: { adapter: hashingAdapter(ctx.adapter) } as Record<string, unknown> };
    },
  };
}
