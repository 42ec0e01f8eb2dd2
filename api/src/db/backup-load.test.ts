import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { DATABASE_FILE } from './database';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';
import { insertVideo, markupPlace } from '../../test-support/video-fixtures';
import { untilState } from '../../../tests/support/wait';

/**
 * Issue 24: a backup taken while users save never fails a save. Another process (`npm run backup`'s
 * code) takes backups one after another, and a third writes to the same database (as the worker
 * process does), while 1,000 markup saves go through the real app: every save answers 200.
 */
const BACKUPS = `
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backupDatabase } from ${JSON.stringify(join(import.meta.dirname, 'backup.ts'))};
const [source, dir, stop] = process.argv.slice(2);
for (let i = 0; !existsSync(stop); i++) backupDatabase(source, join(dir, 'copy-' + i + '.sqlite'));
`;

/** A second process writing to the same database, as \`npm run workers\` does beside the API (job progress, results). */
const WRITER = `
import { existsSync } from 'node:fs';
import { Database } from 'bun:sqlite';
const [source, stop] = process.argv.slice(2);
const db = new Database(source);
db.exec('PRAGMA busy_timeout = 5000');
const put = db.prepare('INSERT INTO captcha_used (challenge_id, expires_at) VALUES (?, ?)');
const clear = db.prepare('DELETE FROM captcha_used WHERE expires_at < ?');
const step = db.transaction((i) => { for (let k = 0; k < 20; k++) put.run('load-' + i + '-' + k, i); clear.run(i - 5); });
for (let i = 0; !existsSync(stop); i++) { step(i); await Bun.sleep(1); }
db.close();
`;

let t: TestApp;
let cookie: string;
let videoId: number;
let operationId: number;
let workplaceId: number;
let employeeId: number;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'norma-backup-load-'));
  const lead = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Мария', lastName: 'Иванова' });
  const now = Date.now();
  const place = await markupPlace(t.deps.db, lead.organizationId, now);
  ({ operationId, workplaceId, employeeId } = place);
  videoId = await insertVideo(t.deps.db, place.cameraId, { filename: 'cam1.mp4', key: 'rec/1/cam1.mp4', start: now, duration: 3600, createdAt: now });
  cookie = await t.signIn('lead', 'secret-pass');
});
afterAll(async () => {
  await t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testsOnPostgres())('a backup under write load', () => {
  it('1,000 saves while backups run in another process: every save answers 200', async () => {
    const script = join(dir, 'backups.ts');
    writeFileSync(script, BACKUPS);
    const stop = join(dir, 'stop');
    const backups = spawn(process.execPath, [script, join(t.config.dataDir, DATABASE_FILE), dir, stop], { stdio: ['ignore', 'inherit', 'pipe'] });
    let backupErrors = '';
    backups.stderr.on('data', (chunk) => (backupErrors += chunk));
    const exited = new Promise<number | null>((done) => backups.on('exit', done));
    const writerScript = join(dir, 'writer.ts');
    writeFileSync(writerScript, WRITER);
    const writer = spawn(process.execPath, [writerScript, join(t.config.dataDir, DATABASE_FILE), stop], { stdio: ['ignore', 'inherit', 'pipe'] });
    writer.stderr.on('data', (chunk) => (backupErrors += chunk));
    const writerExited = new Promise<number | null>((done) => writer.on('exit', done));
    const copies = () => readdirSync(dir).filter((name) => /^copy-\d+\.sqlite$/.test(name)).length;
    const failures: string[] = [];
    try {
      await expect.poll(copies, untilState(20)).toBeGreaterThan(0);
      let version = 0;
      for (let i = 0; i < 1000; i++) {
        const response = await t.request(`/api/v1/video_markups/${videoId}`, {
          method: 'PUT',
          cookie,
          body: JSON.stringify({
            base_version: version,
            video_markups: [
              { id: -1, operation_id: operationId, workplace_id: workplaceId, employee_id: employeeId, start_time: i, end_time: i + 0.5, comment: null },
            ],
            operation_markups_to_delete: [],
          }),
        });
        if (response.status !== 200) failures.push(`${i}: ${response.status} ${await response.text()}`);
        else version = ((await response.json()) as { version: number }).version;
      }
    } finally {
      writeFileSync(stop, '');
      expect(await exited).toBe(0);
      expect(await writerExited).toBe(0);
    }
    expect(failures).toEqual([]);
    expect(backupErrors).toBe('');
    expect(copies()).toBeGreaterThan(1);
    expect(existsSync(stop)).toBe(true);
  });
});
