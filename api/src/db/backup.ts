import { Database } from 'bun:sqlite';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DATABASE_FILE } from './database';
import { knownMigrationNames } from './migrate';

/** A refusal with one Russian sentence for the operator (the commands print it and exit 1). */
export class BackupError extends Error {}

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Online backup of the SQLite database: `VACUUM INTO` copies it inside one read transaction, so the copy
 * is the database as it was at one instant even while the server keeps writing (WAL: writers are not
 * blocked), compacted and without a WAL of its own. The copy is checked (`PRAGMA integrity_check`) and
 * appears under `target` only when whole (written beside it, then renamed). Refuses to overwrite a file.
 */
export function backupDatabase(source: string, target: string): { bytes: number } {
  if (!existsSync(source)) throw new BackupError(`Нет базы данных ${source}: проверьте DATA_DIR.`);
  if (existsSync(target)) throw new BackupError(`Файл ${target} уже есть: укажите новое имя для резервной копии.`);
  if (!existsSync(dirname(target))) throw new BackupError(`Папки ${dirname(target)} нет.`);
  const part = `${target}.${crypto.randomUUID()}.part`;
  const db = new Database(source, { readonly: false, create: false });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    db.prepare('VACUUM INTO ?').run(part);
  } catch (err) {
    rmQuiet(part);
    throw new BackupError(`Не удалось снять копию базы ${source}: ${err instanceof Error ? err.message : String(err)}.`);
  } finally {
    db.close();
  }
  try {
    checkDatabaseFile(part, 'Снятая копия');
  } catch (err) {
    rmQuiet(part);
    throw err;
  }
  const bytes = statSync(part).size;
  renameSync(part, target);
  return { bytes };
}

const rmQuiet = (path: string) => rmSync(path, { force: true });

/**
 * Checks that a file is a whole Norma database this code can run: SQLite header, `PRAGMA integrity_check`,
 * the migrations table, and no migration newer than this version. Returns the applied migration names.
 */
export function checkDatabaseFile(file: string, what = 'Файл'): string[] {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`${what} ${file} не найден.`);
  const header = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) throw new BackupError(`${what} ${file} — не база SQLite.`);
  let db: Database | undefined;
  try {
    db = new Database(file, { readonly: true });
    const problems = db
      .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
      .all()
      .map((r) => r.integrity_check);
    if (problems.join() !== 'ok') throw new BackupError(`${what} ${file} повреждён: ${problems.slice(0, 3).join('; ')}.`);
    const hasTable = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'norma_migrations'").get();
    if (!hasTable) throw new BackupError(`${what} ${file} — не база Нормы (нет таблицы norma_migrations).`);
    const applied = db
      .query<{ name: string }, []>('SELECT name FROM norma_migrations ORDER BY name')
      .all()
      .map((r) => r.name);
    const known = new Set(knownMigrationNames());
    const newer = applied.filter((name) => !known.has(name));
    if (newer.length) throw new BackupError(`${what} ${file} снят более новой версией Нормы (миграции ${newer.join(', ')}): обновите программу.`);
    return applied;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${what} ${file} не читается как база SQLite: ${err instanceof Error ? err.message : String(err)}.`);
  } finally {
    db?.close();
  }
}

/**
 * Whether another process has the database open (a running server or worker). In WAL mode leaving WAL
 * needs the only connection; SQLite refuses (SQLITE_BUSY) while any other is open. With no other, this
 * checkpoints the WAL and removes it and the shared-memory file (the server turns WAL on at its next start).
 */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { create: false });
  try {
    db.exec('PRAGMA busy_timeout = 0');
    const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode = DELETE').get()?.journal_mode;
    return mode !== 'delete';
  } catch {
    return true;
  } finally {
    db.close();
  }
}

export interface RestoreOptions {
  /** Restore even though the database seems open by a running process (never while one really runs). */
  force?: boolean;
}

/**
 * Restores DATA_DIR/norma.sqlite from a backup: checks the backup first (checkDatabaseFile), refuses while a
 * server or worker has the database open (unless `force`), keeps the current database as
 * `norma.sqlite.before-restore-<time>`, and puts a checked copy in place (copied beside it, then renamed).
 */
export async function restoreDatabase(backup: string, dataDir: string, options: RestoreOptions = {}): Promise<{ previous?: string }> {
  checkDatabaseFile(backup, 'Резервная копия');
  if (!existsSync(dataDir)) throw new BackupError(`Папки данных ${dataDir} нет: проверьте DATA_DIR.`);
  const target = join(dataDir, DATABASE_FILE);
  if (!options.force && databaseInUse(target)) {
    throw new BackupError(
      `База ${target} открыта работающим сервером или процессом фоновых задач. Остановите их и повторите (или добавьте --force, если уверены, что никто её не использует).`,
    );
  }
  const part = join(dataDir, `.restore-${crypto.randomUUID()}.sqlite`);
  try {
    await copyFile(backup, part);
    checkDatabaseFile(part, 'Копия для восстановления');
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  let previous: string | undefined;
  if (existsSync(target)) {
    previous = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(target, previous);
  }
  // A WAL left beside the old file goes with it (never replayed into the restored one).
  for (const suffix of ['-wal', '-shm']) {
    if (previous && existsSync(target + suffix)) await rename(target + suffix, previous + suffix);
    else await rm(target + suffix, { force: true });
  }
  await rename(part, target);
  return { previous };
}
