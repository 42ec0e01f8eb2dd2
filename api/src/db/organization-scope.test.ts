import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import type { Db } from './database';
import { isPostgres } from './postgres';

/**
 * Issue 24: every table that holds an organisation's data is scoped to one organisation — it has an
 * `organization_id` column, or a NOT NULL foreign key to a table that is scoped (videos → cameras →
 * structures → organizations). A new table with neither fails here until it gets one, or until it
 * is added below with the reason it is global.
 */
const GLOBAL_TABLES: Record<string, string> = {
  organizations: 'the root of the scope itself',
  // better-auth's tables: a user may belong to organisations through memberships (which is scoped).
  user: 'better-auth: accounts are global, their organisation is in memberships',
  account: 'better-auth: credentials of a global user',
  session: 'better-auth: sessions of a global user',
  verification: 'better-auth: verification tokens',
  rateLimit: 'better-auth: sign-in counters per address (PostgreSQL only)',
  norma_migrations: 'the migrator',
  norma_migrations_lock: 'the migrator',
  rate_limits: 'registration and contact-form counters per client address, before any organisation',
  sign_in_failures: 'sign-in lockout per login and address, before any organisation is known',
  captcha_used: 'robot-check challenges of the public pages',
  feedback: 'contact requests from the public pages, read by the platform owner',
  operation_types: 'fixed reference list (main, idle, …) shared by every organisation',
  video_stamp_types: 'fixed reference list of stamp kinds',
  calculator_defaults: "the public calculator's settings, edited only by the owner organisation's admin",
  calculator_gear: "the public calculator's settings, edited only by the owner organisation's admin",
  calculator_license: "the public calculator's settings, edited only by the owner organisation's admin",
};

interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

async function schemaOf(db: Db): Promise<{ columns: Map<string, Map<string, boolean>>; keys: ForeignKey[] }> {
  const columns = new Map<string, Map<string, boolean>>();
  const keys: ForeignKey[] = [];
  if (isPostgres(db)) {
    const rows = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
      SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
    for (const r of rows.rows) {
      if (!columns.has(r.table_name)) columns.set(r.table_name, new Map());
      columns.get(r.table_name)!.set(r.column_name, r.is_nullable === 'NO');
    }
    const fks = await sql<{ table_name: string; column_name: string; references: string }>`
      SELECT k.table_name, k.column_name, u.table_name AS references
      FROM information_schema.table_constraints c
      JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
      JOIN information_schema.constraint_column_usage u ON u.constraint_name = c.constraint_name AND u.table_schema = c.table_schema
      WHERE c.constraint_type = 'FOREIGN KEY' AND c.table_schema = current_schema()`.execute(db);
    for (const r of fks.rows) keys.push({ table: r.table_name, column: r.column_name, references: r.references });
  } else {
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(db);
    for (const { name } of tables.rows) {
      const info = await sql<{ name: string; notnull: number; pk: number }>`SELECT name, "notnull", pk FROM pragma_table_info(${name})`.execute(db);
      columns.set(name, new Map(info.rows.map((c) => [c.name, c.notnull === 1 || c.pk > 0])));
      const fks = await sql<{ table: string; from: string }>`SELECT "table", "from" FROM pragma_foreign_key_list(${name})`.execute(db);
      for (const fk of fks.rows) keys.push({ table: name, column: fk.from, references: fk.table });
    }
  }
  return { columns, keys };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.cleanup());

describe('organisation scope of the schema', () => {
  it('every table has organization_id or a NOT NULL foreign key chain to one, or is a listed global table', async () => {
    const { columns, keys } = await schemaOf(t.deps.db);
    expect(columns.size).toBeGreaterThan(30);
    // Scoped: has organization_id; then, until nothing changes, a table whose NOT NULL foreign key points at a scoped one.
    const scoped = new Set([...columns].filter(([, cols]) => cols.has('organization_id')).map(([name]) => name));
    scoped.add('organizations');
    for (let grew = true; grew;) {
      grew = false;
      for (const key of keys) {
        if (scoped.has(key.table) || !scoped.has(key.references)) continue;
        if (!columns.get(key.table)?.get(key.column)) continue;
        scoped.add(key.table);
        grew = true;
      }
    }
    const unscoped = [...columns.keys()].filter((name) => !scoped.has(name) && !(name in GLOBAL_TABLES)).sort();
    expect(unscoped, 'tables without an organisation (add organization_id, or list them as global with the reason)').toEqual([]);
    // The cadastre in particular (issue 24: one organisation overwrote another's parcel).
    expect(columns.get('cadastral_parcels')?.has('organization_id')).toBe(true);
    // The allow-list names only tables that exist (on SQLite better-auth keeps its rate limits in memory).
    const stale = Object.keys(GLOBAL_TABLES).filter((name) => !columns.has(name) && name !== 'rateLimit');
    expect(stale).toEqual([]);
  });
});
