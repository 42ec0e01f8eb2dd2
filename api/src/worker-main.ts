import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configureMediaLimits } from '@norma/workers/media-limits';
import { configFromEnv } from './config';
import { pendingMigrations } from './db/migrate';
import { startWorkers } from './job-registry';
import { DATABASE_FILE, type OpenedDatabase } from './db/database';
import { openConfiguredDatabase, StartupError } from './storage/data-dir';
import { objectStoreFor } from './storage/open-store';

/**
 * The background jobs (video ingest and the rest of the queue) as a process of their own, beside
 * an API started with NORMA_WORKERS=0, on the same DATA_DIR (database and object store): `npm run
 * workers` (scripts/workers.mjs). Several can run at once; the queue's claim is one UPDATE, so no job
 * runs twice. The job kinds and their handlers: job-registry.ts.
 */
const config = configFromEnv();
configureMediaLimits(config.media);
const databaseFile = join(config.dataDir, DATABASE_FILE);
// The server creates the installation; a worker only joins one (never starts an empty database).
if (!config.databaseUrl && !existsSync(databaseFile)) {
  console.error(`Фоновые задачи: нет базы ${databaseFile}. Сначала запустите сервер (npm start) с тем же DATA_DIR.`);
  process.exit(1);
}
let opened: OpenedDatabase;
try {
  opened = openConfiguredDatabase(config);
} catch (err) {
  console.error(err instanceof StartupError ? err.message : err);
  process.exit(1);
}

// The API owns migrations: a worker waits for the schema it was built for rather than race them.
const SCHEMA_WAIT_MS = 120_000;
const waitedSince = Date.now();
for (;;) {
  const pending = await pendingMigrations(opened.db);
  if (pending.length === 0) break;
  if (Date.now() - waitedSince > SCHEMA_WAIT_MS) {
    console.error(`Фоновые задачи: база ${config.dataDir} не обновлена (нет миграций ${pending.join(', ')}). Сначала запустите сервер (npm start).`);
    process.exit(1);
  }
  await Bun.sleep(500);
}

const workers = startWorkers(
  { db: opened.db, storage: objectStoreFor(config) },
  { concurrency: config.jobSlots, log: (line) => console.log(`[jobs] ${line}`) },
);
console.log(`Norma: фоновые задачи запущены (${workers.workerId}, данные: ${config.dataDir})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    // Running jobs go back to the queue (their ffmpeg is stopped) and resume in any worker.
    await workers.stop();
    await opened.close();
    process.exit(0);
  });
}
