import { join } from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import { createApp } from './app';
import { createAuth } from './auth/auth';
import type { Config } from './config';
import { migrateToLatest } from './db/migrate';
import { describeOutOfBounds, findOutOfBoundsRows } from './markup/bounds-check.service';
import type { AppDeps } from './deps';
import { openConfiguredDatabase, prepareDataDir, removeOrphanUploads } from './storage/data-dir';
import { objectStoreFor } from './storage/open-store';

/** Reads the session-signing secret from DATA_DIR, creating a random one on first start. */
async function loadSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = Bun.file(join(config.dataDir, 'auth-secret'));
  if (await file.exists()) return (await file.text()).trim();
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  await Bun.write(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Checks DATA_DIR (storage/data-dir.ts: refuses a lost or corrupt one with a StartupError), opens
 * the database, applies migrations (better-auth's tables first, then ours) and builds the app.
 */
export async function bootstrap(config: Config) {
  await prepareDataDir(config);
  const opened = openConfiguredDatabase(config);
  const auth = createAuth({ db: opened.db, baseUrl: config.baseUrl, secret: await loadSecret(config), signInPerMinute: config.signInPerMinute });
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await migrateToLatest(opened.db);
  // Rows stored before the input bounds existed are reported (and read clamped), never changed.
  const outOfBounds = describeOutOfBounds(await findOutOfBoundsRows(opened.db));
  if (outOfBounds) console.warn(`[api] ${outOfBounds}`);
  const storage = objectStoreFor(config);
  // Uploads cut off by a stop of the server. With PostgreSQL other API processes may share the folder
  // and be receiving some: only files idle for ten minutes are theirs no longer.
  await removeOrphanUploads(storage, { idleMs: config.databaseUrl ? 10 * 60_000 : 0 });
  const deps: AppDeps = { db: opened.db, auth, config, storage };
  return { deps, app: createApp(deps), close: () => opened.close() };
}
