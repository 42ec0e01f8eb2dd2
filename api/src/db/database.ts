import { Database as SqliteDatabase } from 'bun:sqlite';
import { Kysely } from 'kysely';
import { BunSqliteDialect } from 'kysely-bun-sqlite';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  sqlite: SqliteDatabase;
  close(): Promise<void>;
}

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
  const db = new Kysely<DB>({
    dialect: new BunSqliteDialect({ database: sqlite }),
  });
  return {
    db,
    sqlite,
    async close() {
      await db.destroy();
      sqlite.close();
    },
  };
}
