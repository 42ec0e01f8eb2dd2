import { sql, type Kysely } from 'kysely';

/**
 * Norm cards (issue 29, docs/norms.md): versions of a structure's norm built from report windows.
 * A draft keeps its windows and parameters and the figures last computed from them; approval
 * freezes the row (approved_at set) and nothing changes it after. `norm_line_scenarios`: saved
 * line-balance scenarios of a card (which workplace does which operation). `norm_approvers`: analysts an
 * administrator allowed to approve norms (administrators always may), per organisation: a user who
 * belongs to two organisations holds the right only in the one whose administrator gave it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE norm_cards (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     version INTEGER NOT NULL,
     title TEXT NOT NULL,
     windows TEXT NOT NULL CHECK (json_valid(windows)),
     params TEXT NOT NULL CHECK (json_valid(params)),
     card TEXT NOT NULL CHECK (json_valid(card)),
     created_at INTEGER NOT NULL,
     created_by TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     updated_at INTEGER NOT NULL,
     approved_at INTEGER,
     approved_by TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     approved_by_name TEXT,
     effective_from TEXT,
     UNIQUE (structure_id, version)
   )`.execute(db);
  await sql`CREATE TABLE norm_line_scenarios (
     id INTEGER PRIMARY KEY,
     card_id INTEGER NOT NULL REFERENCES norm_cards(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     demand REAL NOT NULL,
     assignment TEXT NOT NULL CHECK (json_valid(assignment)),
     created_at INTEGER NOT NULL,
     created_by TEXT REFERENCES "user"(id) ON DELETE SET NULL
   )`.execute(db);
  await sql`CREATE INDEX norm_line_scenarios_by_card ON norm_line_scenarios(card_id)`.execute(db);
  await sql`CREATE TABLE norm_approvers (
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     user_id TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
     granted_by TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     granted_at INTEGER NOT NULL,
     PRIMARY KEY (organization_id, user_id)
   )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
