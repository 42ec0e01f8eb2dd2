import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import { createApp } from './app';
import { createAuth } from './auth/auth';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { AppDeps } from './http/env';
import { folderObjectStore } from './storage/object-store';

/** Reads the session-signing secret from DATA_DIR, creating a random one on first start. */
async function loadSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = Bun.file(join(config.dataDir, 'auth-secret'));
  if (await file.exists()) return (await file.text()).trim();
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  await Bun.write(file, secret, { mode: 0o600 });
  return secret;
}

/** Opens the database, applies migrations (better-auth's tables first, then ours) and builds the app. */
export async function bootstrap(config: Config) {
  await mkdir(config.dataDir, { recursive: true });
  const opened = openDatabase(join(config.dataDir, 'norma.sqlite'));
  const auth = createAuth({ db: opened.db, baseUrl: config.baseUrl, secret: await loadSecret(config), signInPerMinute: config.signInPerMinute });
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await migrateToLatest(opened.db);
  const deps: AppDeps = { db: opened.db, auth, config, storage: folderObjectStore(join(config.dataDir, 'objects')) };
  return { deps, app: createApp(deps), close: () => opened.close() };
}
