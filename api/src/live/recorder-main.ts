import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configureMediaLimits } from '@norma/workers/media-limits';
import { configFromEnv } from '../config';
import { DATABASE_FILE, type OpenedDatabase } from '../db/database';
import { pendingMigrations } from '../db/migrate';
import { openConfiguredDatabase, StartupError } from '../storage/data-dir';
import { objectStoreFor } from '../storage/open-store';
import { startRecorder } from './recorder';

/**
 * The camera-stream recorder as a process of its own (`npm run recorder`, scripts/recorder.mjs), beside
 * an API on the same DATA_DIR or PostgreSQL database and object store. Several may run at once: each
 * camera is held by one (a lease in camera_streams); when a recorder dies its leases expire and
 * another takes its cameras over.
 */
const config = configFromEnv();
configureMediaLimits(config.media);
const databaseFile = join(config.dataDir, DATABASE_FILE);
if (!config.databaseUrl && !existsSync(databaseFile)) {
  console.error(`Регистратор потоков: нет базы ${databaseFile}. Сначала запустите сервер (npm start) с тем же DATA_DIR.`);
  process.exit(1);
}
let opened: OpenedDatabase;
try {
  opened = openConfiguredDatabase(config);
} catch (err) {
  console.error(err instanceof StartupError ? err.message : err);
  process.exit(1);
}
const pending = await pendingMigrations(opened.db);
if (pending.length > 0) {
  console.error(`Регистратор потоков: база ${config.dataDir} не обновлена (нет миграций ${pending.join(', ')}). Сначала запустите сервер (npm start).`);
  process.exit(1);
}

const recorder = startRecorder(
  { db: opened.db, storage: objectStoreFor(config) },
  { workDir: join(config.dataDir, 'live-work'), log: (line) => console.log(`[recorder] ${line}`) },
);
console.log(`Norma: регистратор потоков запущен (${recorder.recorderId}, данные: ${config.dataDir})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await recorder.stop();
    await opened.close();
    process.exit(0);
  });
}
