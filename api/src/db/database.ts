import { Database as SqliteDatabase, type SQLQueryBindings, type Statement } from 'bun:sqlite';
import { CompiledQuery, Kysely } from 'kysely';
import { BunSqliteDialect } from 'kysely-bun-sqlite';
import type { DB } from './schema';
import { isStorageFull } from './storage-full';

/** The SQLite database's file name inside DATA_DIR. */
export const DATABASE_FILE = 'norma.sqlite';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  /** The SQLite handle (integrity check, backups); absent on PostgreSQL (db/postgres.ts). */
  sqlite?: SqliteDatabase;
  close(): Promise<void>;
}

/** How many queries of each database failed for want of space (see `storageFullCount`). */
const fullCounts = new WeakMap<Db, { count: number }>();

/**
 * Opens (creating if needed) the SQLite file in WAL mode with foreign keys on.
 * One file per organisation install; tests open one file each.
 */
export function openDatabase(file: string): OpenedDatabase & { sqlite: SqliteDatabase } {
  const sqlite = new SqliteDatabase(file, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // FULL: a save the user was told is saved survives a power cut too, not only a crash (docs/architecture.md).
  sqlite.exec('PRAGMA synchronous = FULL');
  const full = { count: 0 };
  const db = new Kysely<DB>({
    dialect: new ImmediateTransactionsDialect({ database: withStatementCache(sqlite) }),
    // Counts SQLITE_FULL on every query, including better-auth's, which answers them with a bare 500.
    log(event) {
      if (event.level === 'error' && isStorageFull(event.error)) full.count += 1;
    },
  });
  fullCounts.set(db, full);
  const reader: Reader = { file };
  if (file !== ':memory:' && file !== '') readers.set(db, reader);
  return {
    db,
    sqlite,
    async close() {
      readers.delete(db);
      reader.sqlite?.close();
      await db.destroy();
      sqlite.close();
    },
  };
}

/**
 * Kysely's SQLite transactions begin DEFERRED: a save reads first, and its first write then has to
 * upgrade the read lock. If another connection (`npm run workers`, a second process) holds the write
 * lock at that moment, SQLite answers SQLITE_BUSY at once — it does not call the busy handler for an
 * upgrade, which could deadlock — so the 5 s busy_timeout was never waited (issue 24: a save failed
 * with «database is locked» after 0.06 s while a backup and a worker ran). BEGIN IMMEDIATE takes the
 * write lock first, and waiting for it does honour busy_timeout. Every transaction here writes.
 */
class ImmediateTransactionsDialect extends BunSqliteDialect {
  override createDriver() {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/**
 * A second, read-only connection to the same file, opened on first use, for the hot path's reads
 * (`precompiled`): they run synchronously, without Kysely's connection queue and its promises, and
 * — unlike a read on the main connection — never see another request's open, uncommitted
 * transaction. In WAL mode every statement reads the latest committed state.
 */
interface Reader {
  file: string;
  sqlite?: SqliteDatabase;
}
const readers = new WeakMap<Db, Reader>();

function readerOf(db: Db): SqliteDatabase | null {
  const reader = readers.get(db);
  if (!reader) return null;
  if (!reader.sqlite) {
    reader.sqlite = new SqliteDatabase(reader.file, { readonly: true, strict: true });
    reader.sqlite.exec('PRAGMA busy_timeout = 5000');
  }
  return reader.sqlite;
}

/** Prepared statements kept per database; Kysely builds few distinct SQL texts, lists aside. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as the Kysely dialect sees it, with `prepare` answered from a bounded cache:
 * compiling a statement costs more than running a small query, and the dialect would compile
 * one per query. Least recently used statements are finalized when the cache is full (SQL with
 * `in (?, ?, …)` lists of many lengths must not grow it without bound).
 */
function withStatementCache(sqlite: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  const prepare = (query: string) => {
    let statement = statements.get(query);
    if (statement) {
      statements.delete(query);
    } else {
      statement = sqlite.prepare(query);
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const [oldest, evicted] = statements.entries().next().value!;
        statements.delete(oldest);
        evicted.finalize();
      }
    }
    statements.set(query, statement);
    return statement;
  };
  const close = () => {
    for (const statement of statements.values()) statement.finalize();
    statements.clear();
    sqlite.close();
  };
  return { prepare, close } as unknown as SqliteDatabase;
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

/**
 * A read of the hot path (every request's session, every seek's access check) built and compiled
 * once per database: building SQL with Kysely costs more than SQLite takes to run a small query.
 * `build` gets placeholder values; the returned function passes the real ones, in the same order.
 * On a SQLite file the rows come at once from a statement prepared once on the read-only
 * connection (`readerOf`); inside a transaction (`trx`) and on PostgreSQL they come through Kysely.
 */
export function precompiled<Row>(build: (db: Db) => { compile(): CompiledQuery<Row> }) {
  const texts = new WeakMap<Db, string>();
  const statements = new WeakMap<SqliteDatabase, Statement<Row, SQLQueryBindings[]>>();
  return (db: Db, parameters: readonly SQLQueryBindings[]): Row[] | Promise<Row[]> => {
    let text = texts.get(db);
    if (text === undefined) texts.set(db, (text = build(db).compile().sql));
    const reader = readerOf(db);
    if (!reader) return db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters])).then((result) => result.rows);
    let statement = statements.get(reader);
    if (!statement) statements.set(reader, (statement = reader.prepare<Row, SQLQueryBindings[]>(text)));
    return statement.all(...parameters);
  };
}
