import { Database as SqliteDatabase } from 'bun:sqlite';
import { Kysely } from 'kysely';
import { BunSqliteDialect } from 'kysely-bun-sqlite';
import { isStorageFull } from '../http/errors';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  sqlite: SqliteDatabase;
  close(): Promise<void>;
}

/** How many queries of each database failed for want of space (see `storageFullCount`). */
const fullCounts = new WeakMap<Db, { count: number }>();

/**
 * Opens (creating if needed) the SQLite file in WAL mode with foreign keys on.
 * One file per organisation install; tests open one file each.
 */
export function openDatabase(file: string): OpenedDatabase {
  const sqlite = new SqliteDatabase(file, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  const full = { count: 0 };
  const db = new Kysely<DB>({
    dialect: new BunSqliteDialect({ database: sqlite }),
    // Counts SQLITE_FULL on every query, including better-auth's, which answers them with a bare 500.
    log(event) {
      if (event.level === 'error' && isStorageFull(event.error)) full.count += 1;
    },
  });
  fullCounts.set(db, full);
  return {
    db,
    sqlite,
    async close() {
      await db.destroy();
      sqlite.close();
    },
  };
}

/**
 * Queries of this database that failed with SQLITE_FULL so far. A caller that only sees another
 * library's 500 (better-auth's sign-in) compares it before and after to tell a full disk apart.
 */
export function storageFullCount(db: Db): number {
  return fullCounts.get(db)?.count ?? 0;
}

/** `PRAGMA quick_check`: null when the file is sound, else SQLite's first complaint. */
export function integrityProblem(sqlite: SqliteDatabase): string | null {
  const rows = sqlite.query('PRAGMA quick_check').values() as unknown[][];
  const first = String(rows[0]?.[0] ?? 'ok');
  return rows.length === 1 && first === 'ok' ? null : first;
}
