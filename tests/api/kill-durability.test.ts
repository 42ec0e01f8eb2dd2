import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../api/src/auth/service';
import { bootstrap } from '../../api/src/boot';
import { configFromEnv } from '../../api/src/config';
import { insertVideo, markupPlace } from '../../api/test-support/video-fixtures';
import { apiSessionCookie, startServer } from '../support/server';

/**
 * A save the server acknowledged (200) survives the server being killed (SIGKILL) in the middle of
 * concurrent saves: after a restart every acknowledged row is there exactly once. Bounded: two
 * rounds, each ending after a fixed number of acknowledged saves.
 */

const CLIENTS = 4;
const ACKNOWLEDGED_BEFORE_KILL = 120;
const ROUNDS = 2;
const PASSWORD = 'secret-pass';

let dataDir: string;
let videoIds: number[];
let operationId: number;
let workplaceId: number;

interface SavedMarkups {
  video_markups: { comment: string | null }[];
  version: number;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'norma-kill-'));
  const { deps, close } = await bootstrap({ ...configFromEnv({ DATA_DIR: dataDir }), pwaDir: undefined });
  const lead = await registerUser(deps, { login: 'lead', password: PASSWORD, firstName: 'Мария', lastName: 'Иванова' });
  const now = Date.now();
  const place = await markupPlace(deps.db, lead.organizationId, now);
  ({ operationId, workplaceId } = place);
  videoIds = [];
  for (let i = 0; i < CLIENTS; i++) {
    const start = Date.parse('2026-11-16T06:00:00Z') + i * 3_600_000;
    const filename = `cam1_${i}.mp4`;
    videoIds.push(await insertVideo(deps.db, place.cameraId, { filename, key: `rec/1/${filename}`, start, duration: 3600, createdAt: now }));
  }
  await close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function readMarkups(url: string, cookie: string, videoId: number): Promise<SavedMarkups> {
  const response = await fetch(`${url}/api/v1/video_markups/${videoId}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`read ${videoId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as SavedMarkups;
}

describe('saves under kill -9', () => {
  it('keeps every acknowledged save, once, across kills during concurrent saves', async () => {
    const acknowledged = new Map<number, string[]>(videoIds.map((id) => [id, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer({ NORMA_WORKERS: '0' }, { dataDir });
      const cookie = await apiSessionCookie(server.url, 'lead', PASSWORD);
      let total = 0;
      let killed = false;
      const client = async (videoId: number, clientIndex: number) => {
        let version = (await readMarkups(server.url, cookie, videoId)).version;
        for (let n = 0; !killed; n++) {
          const comment = `r${round}-c${clientIndex}-n${n}`;
          const second = acknowledged.get(videoId)!.length;
          const body = {
            video_markups: [{ id: -1, operation_id: operationId, workplace_id: workplaceId, start_time: second, end_time: second + 0.5, comment }],
            operation_markups_to_delete: [],
            video_stamps: [],
            video_stamps_to_delete: [],
            base_version: version,
            client_save_id: `kill-${comment}-${crypto.randomUUID()}`,
          };
          let response: Response;
          try {
            response = await fetch(`${server.url}/api/v1/video_markups/${videoId}`, {
              method: 'PUT',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
          } catch {
            return; // the server is gone: this save was never acknowledged
          }
          if (response.status !== 200) {
            if (killed) return;
            throw new Error(`save ${comment}: ${response.status} ${await response.text()}`);
          }
          const saved = (await response.json()) as SavedMarkups;
          version = saved.version;
          acknowledged.get(videoId)!.push(comment);
          if (++total >= ACKNOWLEDGED_BEFORE_KILL && !killed) {
            killed = true;
            await server.kill();
          }
        }
      };
      await Promise.all(videoIds.map((id, index) => client(id, index)));
      expect(killed).toBe(true);
    }

    const server = await startServer({ NORMA_WORKERS: '0' }, { dataDir });
    try {
      const cookie = await apiSessionCookie(server.url, 'lead', PASSWORD);
      let count = 0;
      for (const videoId of videoIds) {
        const stored = (await readMarkups(server.url, cookie, videoId)).video_markups.map((m) => m.comment ?? '');
        const expected = acknowledged.get(videoId)!;
        count += expected.length;
        for (const comment of expected)
          expect(
            stored.filter((c) => c === comment),
            `${comment} on video ${videoId}`,
          ).toHaveLength(1);
      }
      expect(count).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL * ROUNDS);
    } finally {
      await server.stop();
    }
  });
});
