import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `bun api/src/main.ts` (what `npm start` runs) on a DATA_DIR it must not use: it stops before
 * listening, with exit code 1 and one Russian line on stderr — no stack trace.
 */

const root = resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'norma-start-'));
  dirs.push(dir);
  return dir;
};

async function start(dataDir: string) {
  const child = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), 'api/src/main.ts'], {
    cwd: root,
    // Port 0: should a refusal fail to happen, the server listens somewhere harmless until killed below.
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, NORMA_DEMO: '0', NORMA_WORKERS: '0', NORMA_FIRST_RUN: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stderr = new Response(child.stderr).text();
  // A server that did start says so on stdout: stop it, so the test fails instead of hanging.
  let stdout = '';
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    stdout += decoder.decode(chunk);
    if (stdout.includes('слушает')) child.kill();
  }
  const code = await child.exited;
  return { code, stderr: (await stderr).trim(), stdout };
}

const expectOneRussianLine = (stderr: string) => {
  const lines = stderr.split('\n').filter((line) => line.trim());
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/[а-яё]/i);
  expect(stderr).not.toMatch(/\n\s+at |Error:/);
};

describe('start-up refusals', () => {
  it('a corrupt database file (random bytes)', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'norma.sqlite'), crypto.getRandomValues(new Uint8Array(16_384)));
    const { code, stderr } = await start(dir);
    expect(code).toBe(1);
    expectOneRussianLine(stderr);
    expect(stderr).toContain('повреждена');
  });

  it('a 0-byte database', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'norma.sqlite'), '');
    const { code, stderr } = await start(dir);
    expect(code).toBe(1);
    expectOneRussianLine(stderr);
    expect(stderr).toContain('0 байт');
    expect(stderr).toContain('NORMA_FIRST_RUN=1');
  });

  it('a DATA_DIR that cannot be written (a file in its place, which stops root too)', async () => {
    const file = join(scratch(), 'data');
    writeFileSync(file, 'не папка');
    const { code, stderr } = await start(file);
    expect(code).toBe(1);
    expectOneRussianLine(stderr);
    expect(stderr).toContain('не папка');
  });
});
