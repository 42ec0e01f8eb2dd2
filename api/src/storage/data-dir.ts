import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { DATABASE_FILE, integrityProblem, openDatabase, type OpenedDatabase } from '../db/database';
import { openPostgres } from '../db/postgres';
import type { ObjectStore } from './object-store';

/**
 * A reason the server must not start, in one Russian line for the administrator
 * (main.ts prints it to stderr without a stack trace and exits with code 1).
 */
export class StartupError extends Error {}

const FIRST_RUN_HINT = 'Если это действительно первый запуск, задайте NORMA_FIRST_RUN=1.';

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

function fsReason(err: unknown): string {
  switch (codeOf(err)) {
    case 'EACCES':
    case 'EPERM':
      return 'нет прав доступа';
    case 'EROFS':
      return 'файловая система только для чтения';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'нет места на диске';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'на этом пути файл, а не папка';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

const exists = (path: string) =>
  stat(path).then(
    (info) => info,
    () => null,
  );

/**
 * Makes sure DATA_DIR is a writable folder that holds this installation's data, or is plainly new.
 * Refused without NORMA_FIRST_RUN=1 (a lost disk or a bad copy must not silently become an empty
 * installation): a DATA_DIR that was given but does not exist, a 0-byte database, and a folder
 * with files of an installation (objects/, auth-secret, a WAL file) but no database. The default
 * ./data of a fresh checkout is created, so `npm start` works with no settings.
 */
export async function prepareDataDir(config: Config): Promise<void> {
  const dir = config.dataDir;
  const info = await stat(dir).catch((err: unknown) => {
    if (codeOf(err) === 'ENOENT') return null;
    throw new StartupError(`Папка данных ${dir} недоступна: ${fsReason(err)}.`);
  });
  if (info === null) {
    if (config.dataDirGiven && !config.firstRun) {
      throw new StartupError(`Папка данных ${dir} (DATA_DIR) не найдена: проверьте путь и подключён ли диск. ${FIRST_RUN_HINT}`);
    }
    await mkdir(dir, { recursive: true }).catch((err: unknown) => {
      throw new StartupError(`Не удалось создать папку данных ${dir}: ${fsReason(err)}.`);
    });
  } else if (!info.isDirectory()) {
    throw new StartupError(`Папка данных ${dir} (DATA_DIR) — это файл, а не папка.`);
  }

  // A probe write: permissions, a read-only mount or a full disk show here, not in the first request.
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  } catch (err) {
    throw new StartupError(`Нет записи в папку данных ${dir}: ${fsReason(err)}.`);
  }

  // On PostgreSQL the database is not in DATA_DIR: nothing here can tell a lost one.
  if (config.databaseUrl) return;
  const database = join(dir, DATABASE_FILE);
  const file = await exists(database);
  if (file && file.size === 0 && !config.firstRun) {
    throw new StartupError(
      `База данных ${database} пуста (0 байт): похоже, она повреждена или скопирована не полностью. Восстановите её из резервной копии. ${FIRST_RUN_HINT}`,
    );
  }
  if (!file && !config.firstRun) {
    const entries = await readdir(dir).catch(() => [] as string[]);
    const traces = entries.filter((name) => name === 'objects' || name === 'auth-secret' || name.startsWith(`${DATABASE_FILE}-`));
    if (traces.length > 0) {
      throw new StartupError(
        `В папке данных ${dir} нет базы ${DATABASE_FILE}, но есть данные прежней установки (${traces.join(', ')}). Восстановите базу из резервной копии. ${FIRST_RUN_HINT}`,
      );
    }
  }
}

/** Opens the database and runs `PRAGMA quick_check`; a file SQLite cannot read is a StartupError. */
export function openCheckedDatabase(file: string): OpenedDatabase {
  let opened: ReturnType<typeof openDatabase> | null = null;
  try {
    opened = openDatabase(file);
    const problem = integrityProblem(opened.sqlite);
    if (problem) throw new StartupError(`База данных ${file} повреждена (${problem}). Восстановите её из резервной копии.`);
    return opened;
  } catch (err) {
    opened?.sqlite.close();
    if (err instanceof StartupError) throw err;
    const code = String(codeOf(err) ?? '');
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StartupError(`База данных ${file} повреждена или это не файл SQLite. Восстановите её из резервной копии.`);
    }
    throw new StartupError(`Не удалось открыть базу данных ${file}: ${err instanceof Error ? err.message : String(err)}.`);
  }
}

/**
 * Upload work files (`.upload-….part`) left by a server that stopped mid-upload; returns their keys.
 * With `idleMs` (several API processes on one shared folder) only files nobody has written for that
 * long: a neighbour may be receiving the others (an upload in progress writes at least every two
 * minutes, the server's idle timeout). A bucket's work files are in each process's own cache.
 */
export async function removeOrphanUploads(storage: ObjectStore, { idleMs = 0 }: { idleMs?: number } = {}): Promise<string[]> {
  const orphans: string[] = [];
  for (const key of await storage.workFiles()) {
    if (!/(^|\/)\.upload-[^/]*\.part$/.test(key)) continue;
    if (idleMs > 0 && storage.isLocal) {
      const written = (await stat(storage.pathOf(key)).catch(() => null))?.mtimeMs;
      if (written === undefined || written > Date.now() - idleMs) continue;
    }
    await storage.remove(key);
    orphans.push(key);
  }
  return orphans;
}

/** The installation's database: PostgreSQL when DATABASE_URL is set, else the checked SQLite file in DATA_DIR. */
export function openConfiguredDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): OpenedDatabase {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openCheckedDatabase(join(config.dataDir, DATABASE_FILE));
}
