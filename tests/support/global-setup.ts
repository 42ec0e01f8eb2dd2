import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Gives this test run its own folder of started servers (tests/support/server.ts writes their pids). */
export function setup() {
  process.env.NORMA_TEST_SERVERS_DIR = mkdtempSync(join(tmpdir(), 'norma-test-servers-'));
}

/** Ends the servers a test file started and never stopped (its beforeAll failed before afterAll could). */
export function teardown() {
  const folder = process.env.NORMA_TEST_SERVERS_DIR;
  if (!folder) return;
  for (const pid of readdirSync(folder)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
  rmSync(folder, { recursive: true, force: true });
}
