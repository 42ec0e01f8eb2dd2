import { Database } from 'bun:sqlite';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from './database';
import { backupDatabase, checkDatabaseFile, restoreDatabase } from './backup';
import { untilState } from '../../../tests/support/wait';

const RETRY = untilState(50);

/** SHA-256 of every table's rows (sorted), by table name; `where` narrows one table. */
function tableHashes(file: string, where: Record<string, string> = {}): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => r.name);
    return Object.fromEntries(
      tables.map((table) => {
        const rows = db
          .query(`SELECT * FROM "${table}" ${where[table] ?? ''}`)
          .all()
          .map((r) => JSON.stringify(r))
          .sort();
        return [table, new Bun.CryptoHasher('sha256').update(rows.join('\n')).digest('hex')];
      }),
    );
  } finally {
    db.close();
  }
}

function readOne<T>(file: string, sql: string): T {
  const db = new Database(file, { readonly: true });
  try {
    return db.query(sql).get() as T;
  } finally {
    db.close();
  }
}

/** A separate process writing one row and the counter per transaction until `stop` exists (a server under load). */
const SETUP = `
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { bootstrap } from ${JSON.stringify(join(import.meta.dirname, '..', 'boot.ts'))};
import { configFromEnv } from ${JSON.stringify(join(import.meta.dirname, '..', 'config.ts'))};
const dataDir = process.argv[2];
const started = await bootstrap({ ...configFromEnv({ DATA_DIR: dataDir, PORT: '3999' }), pwaDir: undefined });
await started.close();
const db = new Database(join(dataDir, 'norma.sqlite'));
db.exec('CREATE TABLE load (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
db.exec('CREATE TABLE load_counter (n INTEGER NOT NULL)');
db.exec('INSERT INTO load_counter (n) VALUES (0)');
// Some bulk, so that the copy takes a while under the writer.
db.exec('CREATE TABLE bulk (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
const bulk = db.prepare('INSERT INTO bulk (payload) VALUES (?)');
db.transaction(() => { for (let i = 0; i < 20000; i++) bulk.run('запись ' + i + ' ' + 'y'.repeat(i % 300)); })();
db.close();
`;

const WRITER = `
import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
const [file, stop] = process.argv.slice(2);
const db = new Database(file);
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA busy_timeout = 5000');
const insert = db.prepare('INSERT INTO load (id, payload) VALUES (?, ?)');
const count = db.prepare('UPDATE load_counter SET n = ?');
let n = db.query('SELECT n FROM load_counter').get().n;
const step = db.transaction((i) => { insert.run(i, 'строка ' + i + ' ' + 'x'.repeat(i % 200)); count.run(i); });
while (!existsSync(stop)) { n += 1; step(n); if (n % 50 === 0) await Bun.sleep(1); }
db.close();
`;

describe('online backup and restore of the SQLite database', () => {
  let dir: string;
  let source: string;
  let writerScript: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'norma-backup-'));
    mkdirSync(join(dir, 'data'));
    source = join(dir, 'data', DATABASE_FILE);
    // A real installation's database (better-auth's tables and ours), as the server leaves it, made by another
    // process: this one must hold no connection to it (a restore checks that nobody has it open).
    const setup = join(dir, 'setup.ts');
    writeFileSync(setup, SETUP);
    const made = spawnSync(process.execPath, [setup, join(dir, 'data')], { encoding: 'utf8' });
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    writerScript = join(dir, 'writer.ts');
    writeFileSync(writerScript, WRITER);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a backup taken while another process writes is the database at one instant and restores to an equal one', async () => {
    const stop = join(dir, 'stop');
    const writer = spawn(process.execPath, [writerScript, source, stop], { stdio: ['ignore', 'inherit', 'inherit'] });
    const exited = new Promise<number | null>((done) => writer.on('exit', done));
    const rows = () => readOne<{ n: number }>(source, 'SELECT count(*) AS n FROM load').n;
    try {
      await expect.poll(rows, RETRY).toBeGreaterThan(300);
      const backup = join(dir, 'backup-1.sqlite');
      backupDatabase(source, backup);

      // What the backup holds: k rows, all of them, and the counter of the same transaction.
      const snapshot = readOne<{ n: number; rows: number; top: number }>(
        backup,
        'SELECT (SELECT n FROM load_counter) AS n, (SELECT count(*) FROM load) AS rows, (SELECT max(id) FROM load) AS top',
      );
      expect(snapshot.n).toBeGreaterThan(300);
      expect(snapshot.rows).toBe(snapshot.n);
      expect(snapshot.top).toBe(snapshot.n);
      expect(readOne<{ integrity_check: string }>(backup, 'PRAGMA integrity_check').integrity_check).toBe('ok');

      // The server is still writing: a restore over its database is refused, and nothing changes.
      await expect(restoreDatabase(backup, join(dir, 'data'))).rejects.toThrow('открыта работающим сервером');
      expect(existsSync(source)).toBe(true);
      expect(readdirSync(join(dir, 'data')).filter((f) => f.includes('before-restore') || f.startsWith('.restore'))).toEqual([]);

      // Let the writer go on past the backup instant, then stop it.
      await expect.poll(rows, RETRY).toBeGreaterThan(snapshot.n + 300);
      writeFileSync(stop, '');
      expect(await exited).toBe(0);

      // The source as it was at the backup instant equals the backup, table by table.
      const atInstant = tableHashes(source, { load: `WHERE id <= ${snapshot.n}`, load_counter: `WHERE 0` });
      const inBackup = tableHashes(backup, { load_counter: 'WHERE 0' });
      expect(Object.keys(inBackup).length).toBeGreaterThan(5);
      expect(inBackup).toEqual(atInstant);
      expect(tableHashes(source).load).not.toBe(inBackup.load); // the source did move on

      // Restored into a fresh data folder: equal to the backup, and whole.
      const fresh = join(dir, 'fresh');
      mkdirSync(fresh);
      expect(await restoreDatabase(backup, fresh)).toEqual({ previous: undefined });
      const restored = join(fresh, DATABASE_FILE);
      expect(tableHashes(restored)).toEqual(tableHashes(backup));
      expect(checkDatabaseFile(restored)).toContain('0001_init');
      expect(readOne<{ integrity_check: string }>(restored, 'PRAGMA integrity_check').integrity_check).toBe('ok');

      // With the writer gone, a restore over the source goes through and keeps the previous database.
      const before = tableHashes(source);
      const { previous } = await restoreDatabase(backup, join(dir, 'data'));
      expect(previous).toMatch(/norma\.sqlite\.before-restore-/);
      expect(tableHashes(previous!)).toEqual(before);
      expect(tableHashes(source)).toEqual(tableHashes(backup));
    } finally {
      if (writer.exitCode === null) writeFileSync(stop, '');
      await exited;
    }
  });

  it('refuses to overwrite an existing backup file', () => {
    const target = join(dir, 'exists.sqlite');
    writeFileSync(target, 'прежний файл');
    expect(() => backupDatabase(source, target)).toThrow('уже есть');
    expect(readFileSync(target, 'utf8')).toBe('прежний файл');
    expect(() => backupDatabase(join(dir, 'nowhere', DATABASE_FILE), join(dir, 'x.sqlite'))).toThrow('Нет базы данных');
  });

  it('refuses bad backup files and leaves the database as it was', async () => {
    const target = join(dir, 'target');
    mkdirSync(target);
    const good = join(dir, 'good.sqlite');
    backupDatabase(source, good);
    await restoreDatabase(good, target);
    const before = tableHashes(join(target, DATABASE_FILE));

    const text = join(dir, 'text.sqlite');
    writeFileSync(text, 'это не база данных, а просто текст');
    const truncated = join(dir, 'truncated.sqlite');
    writeFileSync(truncated, readFileSync(good).subarray(0, 8192));
    const foreign = join(dir, 'foreign.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    other.close();
    const newer = join(dir, 'newer.sqlite');
    copyFileSync(good, newer);
    const edit = new Database(newer);
    edit.exec("INSERT INTO norma_migrations (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01T00:00:00.000Z')");
    edit.close();

    await expect(restoreDatabase(join(dir, 'missing.sqlite'), target)).rejects.toThrow('не найден');
    await expect(restoreDatabase(text, target)).rejects.toThrow('не база SQLite');
    await expect(restoreDatabase(truncated, target)).rejects.toThrow(/повреждён|не читается/);
    await expect(restoreDatabase(foreign, target)).rejects.toThrow('не база Нормы');
    await expect(restoreDatabase(newer, target)).rejects.toThrow('более новой версией');
    await expect(restoreDatabase(good, join(dir, 'no-such-dir'))).rejects.toThrow('Папки данных');

    expect(tableHashes(join(target, DATABASE_FILE))).toEqual(before);
    expect(readdirSync(target).filter((f) => f !== DATABASE_FILE)).toEqual([]);
  });
});
