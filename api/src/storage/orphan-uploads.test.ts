import { mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeOrphanUploads } from './data-dir';
import { folderObjectStore } from './object-store';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'norma-orphans-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const place = (key: string, ageMs: number) => {
  const path = join(root, key);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, 'часть записи');
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
};

describe('removal of cut-off uploads at start-up', () => {
  it('removes every upload work file of a folder of its own, and only those', async () => {
    place('recordings/a/.upload-1.part', 0);
    place('recordings/a/.upload-2.part', 60 * 60_000);
    place('recordings/a/clip.mp4', 60 * 60_000);
    const removed = await removeOrphanUploads(folderObjectStore(root));
    expect(removed.sort()).toEqual(['recordings/a/.upload-1.part', 'recordings/a/.upload-2.part']);
    expect(existsSync(join(root, 'recordings/a/clip.mp4'))).toBe(true);
  });

  it('on a folder shared by several API processes leaves uploads written lately (a neighbour is receiving them)', async () => {
    place('recordings/a/.upload-busy.part', 30_000);
    place('recordings/a/.upload-left.part', 11 * 60_000);
    expect(await removeOrphanUploads(folderObjectStore(root), { idleMs: 10 * 60_000 })).toEqual(['recordings/a/.upload-left.part']);
    expect(existsSync(join(root, 'recordings/a/.upload-busy.part'))).toBe(true);
  });
});
