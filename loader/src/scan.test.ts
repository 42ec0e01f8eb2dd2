import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder, unsupportedFiles } from './scan';

const dir = mkdtempSync(join(tmpdir(), 'norma-loader-scan-'));
const now = Date.parse('2026-11-16T12:00:00Z');
const put = (name: string, content: string, minutesAgo: number) => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  const time = new Date(now - minutesAgo * 60_000);
  utimesSync(path, time, time);
};

beforeAll(() => {
  put('cam1_2026-11-16_09-00-00.mp4', 'video-1', 30);
  put('2026-11-16/cam1_2026-11-16_09-30-00.MP4', 'video-2', 20);
  put('cam1_2026-11-16_11-59-55.mp4', 'still being written', 0.05);
  put('.hidden.mp4', 'hidden', 30);
  put('empty.mp4', '', 30);
  put('phone.MOV', 'a phone clip', 25);
  put('clip.flv', 'a container the server does not take', 30);
  put('notes.txt', 'text', 30);
  put('state.mp4', 'the state file, by a strange name', 30);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scanFolder', () => {
  it('finds settled, non-empty recordings of the containers the server takes, in subfolders too, oldest first, skipping hidden, others and the state file', async () => {
    const files = await scanFolder(dir, { settleMs: 10_000, now, ignore: [join(dir, 'state.mp4')] });
    expect(files.map((f) => f.name)).toEqual(['cam1_2026-11-16_09-00-00.mp4', 'phone.MOV', '2026-11-16/cam1_2026-11-16_09-30-00.MP4']);
    expect(files[0]).toMatchObject({ path: join(dir, 'cam1_2026-11-16_09-00-00.mp4'), size: 7, modifiedAt: now - 30 * 60_000 });
  });

  it('takes a file still changing once it has settled', async () => {
    const later = await scanFolder(dir, { settleMs: 10_000, now: now + 60_000, ignore: [join(dir, 'state.mp4')] });
    expect(later.map((f) => f.name)).toContain('cam1_2026-11-16_11-59-55.mp4');
  });

  it('names the files the server would refuse', async () => {
    expect(await unsupportedFiles(dir)).toEqual(['clip.flv']);
  });
});
