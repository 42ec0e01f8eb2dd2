import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database';
import * as init from './migrations/0001_init';

/** Versioned migrations, in order. Add a file and a line here; never edit an applied one. */
const migrations: Record<string, Migration> = {
  '0001_init': init,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws (and applies nothing more) on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'norma_migrations', migrationLockTableName: 'norma_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
