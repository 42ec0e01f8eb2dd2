import { closeSync, existsSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { BackupError } from './backup';
import { knownMigrationNames } from './migrate';
import { openPostgres, syncIdentitySequences } from './postgres';

/**
 * Backup and restore of the PostgreSQL database (DATABASE_URL; docs/deployment.md): `pg_dump -Fc`
 * and `pg_restore` of the installed PostgreSQL client (Debian's `postgresql-client`, part of the
 * `postgresql` package). pg_dump reads the whole database in one snapshot, so the copy is the
 * database as it was at one instant while the servers keep writing.
 */

/** The newest installed PostgreSQL's tool (it reads older servers too), else the one on PATH. */
export function postgresTool(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin', name)).find((path) => existsSync(path));
  const onPath = found ?? Bun.which(name);
  if (!onPath) throw new BackupError(`Нет программы ${name}: установите клиент PostgreSQL (пакет Debian postgresql-client).`);
  return onPath;
}

/** The URL without its password, which goes to the tools in PGPASSWORD instead of their command line (ps shows that). */
function connection(url: string): { dbname: string; env: Record<string, string | undefined> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

const nameOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
};

async function run(command: string[], env: Record<string, string | undefined>): Promise<string> {
  const child = Bun.spawn(command, { env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new BackupError(`${command[0]!.split('/').at(-1)}: ${err.trim() || `код ${code}`}`);
  return out;
}

/**
 * `pg_dump -Fc` of the database at `url` into `target`: written beside it and renamed when whole and
 * readable (`pg_restore --list`). Refuses to overwrite a file.
 */
export async function backupPostgres(url: string, target: string): Promise<{ bytes: number }> {
  if (existsSync(target)) throw new BackupError(`Файл ${target} уже есть: укажите новое имя для резервной копии.`);
  if (!existsSync(dirname(target))) throw new BackupError(`Папки ${dirname(target)} нет.`);
  const { dbname, env } = connection(url);
  const part = `${target}.${crypto.randomUUID()}.part`;
  try {
    await run([postgresTool('pg_dump'), '--format=custom', '--no-owner', '--no-privileges', `--file=${part}`, `--dbname=${dbname}`], env);
    await readArchive(part, 'Снятая копия');
    renameSync(part, target);
  } catch (err) {
    rmSync(part, { force: true });
    if (err instanceof BackupError) throw new BackupError(`Не удалось снять копию базы ${nameOf(url)}: ${err.message}`);
    throw err;
  }
  return { bytes: statSync(target).size };
}

/**
 * Checks that a file is a pg_dump archive of a Norma database this code can run: the archive's
 * signature, its table of contents, the migrations table, and no migration newer than this version.
 * Returns the applied migration names.
 */
export async function checkPostgresBackup(file: string, what = 'Резервная копия'): Promise<string[]> {
  const list = await readArchive(file, what);
  if (!/ TABLE DATA \S+ norma_migrations /.test(list)) throw new BackupError(`${what} ${file} — не база Нормы (нет таблицы norma_migrations).`);
  // The migrations table's rows, as the COPY block of a data-only script.
  const script = await run([postgresTool('pg_restore'), '--data-only', '--table=norma_migrations', '--file=-', file], process.env);
  const rows = /^COPY \S*norma_migrations \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(script);
  if (!rows) throw new BackupError(`${what} ${file} — не база Нормы (таблица norma_migrations не читается).`);
  const column = rows[1]!
    .split(',')
    .map((c) => c.trim().replaceAll('"', ''))
    .indexOf('name');
  const applied = rows[2]!
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[column]!)
    .sort();
  const known = new Set(knownMigrationNames());
  const newer = applied.filter((name) => !known.has(name));
  if (newer.length) throw new BackupError(`${what} ${file} снята более новой версией Нормы (миграции ${newer.join(', ')}): обновите программу.`);
  return applied;
}

/** The archive's table of contents (`pg_restore --list`), after its signature; refuses a file that is none. */
async function readArchive(file: string, what: string): Promise<string> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`${what} ${file} не найдена.`);
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== 'PGDMP') throw new BackupError(`${what} ${file} — не копия PostgreSQL (pg_dump -Fc).`);
  try {
    return await run([postgresTool('pg_restore'), '--list', file], process.env);
  } catch (err) {
    throw new BackupError(`${what} ${file} повреждена: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Tables in the database's own schemas (anything PostgreSQL did not create itself). */
async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`Нет соединения с базой ${nameOf(url)}: ${err instanceof Error ? err.message : String(err)}. Проверьте DATABASE_URL.`);
  }
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%'",
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/**
 * Restores a pg_dump archive into the database at `url`, which must be empty (a new `createdb`):
 * restoring over data would mix two states, so a database with tables is refused and left as it
 * is. The archive is checked first; pg_restore runs in one transaction (a failure leaves the
 * database empty), then the identity counters are moved past the restored ids.
 */
export async function restorePostgres(backup: string, url: string): Promise<void> {
  await checkPostgresBackup(backup);
  const tables = await tableCount(url);
  if (tables > 0) {
    throw new BackupError(
      `База ${nameOf(url)} не пустая (таблиц: ${tables}): копия восстанавливается только в пустую базу. Создайте новую (createdb), укажите её в DATABASE_URL и повторите; прежнюю удалите, когда проверите восстановленную.`,
    );
  }
  const { dbname, env } = connection(url);
  await run([postgresTool('pg_restore'), '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, backup], env);
  const opened = openPostgres(url, { max: 1 });
  try {
    await syncIdentitySequences(opened.db);
  } finally {
    await opened.close();
  }
}
