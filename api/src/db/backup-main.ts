import { resolve } from 'node:path';
import { configFromEnv } from '../config';
import { DATABASE_FILE } from './database';
import { BackupError, backupDatabase, restoreDatabase } from './backup';
import { backupPostgres, restorePostgres } from './backup-postgres';

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force]` (scripts/backup.mjs, scripts/restore.mjs):
 * the database of DATA_DIR, or with DATABASE_URL the PostgreSQL database (pg_dump -Fc / pg_restore into an
 * empty database; backup-postgres.ts). Objects are backed up separately (docs/deployment.md, «Резервные копии»).
 */
const [command, ...args] = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((a) => !a.startsWith('--'));
const config = configFromEnv();
try {
  if (!file) throw new BackupError(`Укажите файл: npm run ${command ?? 'backup'} -- <файл>`);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} МиБ`;
  if (config.databaseUrl && command === 'backup') {
    const { bytes } = await backupPostgres(config.databaseUrl, resolve(file));
    console.log(`Резервная копия базы PostgreSQL: ${resolve(file)} (${mib(bytes)}). Объекты копируются отдельно (docs/deployment.md).`);
  } else if (config.databaseUrl && command === 'restore') {
    await restorePostgres(resolve(file), config.databaseUrl);
    console.log(`База PostgreSQL из DATABASE_URL восстановлена из ${resolve(file)}.`);
  } else if (command === 'backup') {
    const { bytes } = backupDatabase(resolve(config.dataDir, DATABASE_FILE), resolve(file));
    console.log(`Резервная копия базы: ${resolve(file)} (${mib(bytes)}). Объекты копируются отдельно (docs/deployment.md).`);
  } else if (command === 'restore') {
    const { previous } = await restoreDatabase(resolve(file), config.dataDir, { force });
    console.log(`База ${resolve(config.dataDir, DATABASE_FILE)} восстановлена из ${resolve(file)}.${previous ? ` Прежняя сохранена как ${previous}.` : ''}`);
  } else {
    throw new BackupError('Команда: backup или restore');
  }
} catch (err) {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
}
