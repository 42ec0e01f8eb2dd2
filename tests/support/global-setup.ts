import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresCluster, type PostgresCluster } from './postgres';

let postgres: PostgresCluster | undefined;

/**
 * Gives this test run its own folder of started servers (tests/support/server.ts writes their pids)
 * and, with NORMA_TEST_DATABASE=postgres, a PostgreSQL cluster for the API tests (api/test-support/testing.ts).
 */
export async function setup() {
  process.env.NORMA_TEST_SERVERS_DIR = mkdtempSync(join(tmpdir(), 'norma-test-servers-'));
  if (process.env.NORMA_TEST_DATABASE === 'postgres') {
    postgres = await startPostgresCluster();
    process.env.NORMA_TEST_POSTGRES_URL = postgres.baseUrl;
  }
}

/** Ends the servers a test file started and never stopped (its beforeAll failed before afterAll could). */
export function teardown() {
  postgres?.stop();
  const folder = process.env.NORMA_TEST_SERVERS_DIR;
  if (!folder) return;
  for (const pid of readdirSync(folder)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
  rmSync(folder, { recursive: true, force: true });
}
