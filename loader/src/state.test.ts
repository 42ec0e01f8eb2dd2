import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyState, loadState, saveState, wasDelivered } from './state';

const dir = mkdtempSync(join(tmpdir(), 'norma-loader-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loader state', () => {
  it('starts empty, and keeps delivered hashes across a restart', async () => {
    const path = join(dir, 'a', 'state.json');
    const state = await loadState(path);
    expect(state).toEqual(emptyState());
    state.uploaded['ab'.repeat(32)] = { path: '/rec/cam1.mp4', size: 10, videoId: 7, uploadedAt: '2026-11-16T06:00:00.000Z', how: 'uploaded' };
    await saveState(path, state);
    const again = await loadState(path);
    expect(wasDelivered(again, 'ab'.repeat(32))).toBe(true);
    expect(wasDelivered(again, 'cd'.repeat(32))).toBe(false);
    expect(readdirSync(join(dir, 'a'))).toEqual(['state.json']);
  });

  it('puts a damaged file aside and starts afresh', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"version": 1, "uploaded": {"a');
    const lines: string[] = [];
    expect(await loadState(path, (l) => lines.push(l))).toEqual(emptyState());
    expect(lines[0]).toContain('повреждён');
    expect(readdirSync(dir).some((f) => f.startsWith('broken.json.broken-'))).toBe(true);
  });
});
