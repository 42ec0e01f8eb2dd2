import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../api/src/job-registry';
import { createTestApp, type TestApp } from '../../api/test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../api/test-support/video-fixtures';
import { NormaClient } from './client';
import { loadState } from './state';
import { uploadPass } from './uploader';

let t: TestApp;
let w: VideoWorld;
let server: ReturnType<typeof Bun.serve>;
let folder: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  server = Bun.serve({
    port: 0,
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set('x-norma-client-ip', '127.0.0.1');
      return t.app.fetch(new Request(request, { headers }));
    },
  });
  folder = mkdtempSync(join(tmpdir(), 'norma-loader-real-'));
  for (const [name, seconds] of [
    ['cam3_2026-11-16_09-00-00.mp4', 2],
    ['cam3_2026-11-16_09-02-30.mp4', 3],
  ] as const) {
    await makeClip(join(folder, name), { seconds });
    utimesSync(join(folder, name), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  }
});
afterAll(async () => {
  server.stop(true);
  await t.cleanup();
  rmSync(folder, { recursive: true, force: true });
});

describe('the loader against the real API', () => {
  it('finds the camera by structure and number, uploads new recordings once, and the server registers them', async () => {
    const client = new NormaClient({ server: `http://localhost:${server.port}`, login: 'marker', password: 'secret-pass' });
    await client.signIn();
    const cameraId = await client.cameraId(w.structureId, 3);
    expect(cameraId).toBe(w.cameraIds[2]);
    const statePath = join(folder, '.norma-loader-state.json');
    const context = async () => ({
      folder,
      cameraId,
      client,
      statePath,
      state: await loadState(statePath),
      settleMs: 5_000,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      log: () => {},
    });
    const first = await uploadPass(await context());
    expect(first.uploaded).toEqual(['cam3_2026-11-16_09-00-00.mp4', 'cam3_2026-11-16_09-02-30.mp4']);
    const videos = await t.deps.db
      .selectFrom('videos')
      .select(['filename', 'storage_key', 'status', 'start_time'])
      .where('camera_id', '=', cameraId)
      .orderBy('start_time')
      .execute();
    expect(videos.map((v) => v.storage_key)).toEqual([
      'recordings/site/cam3/cam3_2026-11-16_09-00-00.mp4',
      'recordings/site/cam3/cam3_2026-11-16_09-02-30.mp4',
    ]);
    expect(new Date(videos[0]!.start_time).toISOString()).toBe('2026-11-16T06:00:00.000Z');

    expect((await uploadPass(await context())).uploaded).toEqual([]);
    // The state is lost: the server's content check stops a second upload.
    rmSync(statePath);
    const again = await uploadPass(await context());
    expect(again).toEqual({ uploaded: [], alreadyOnServer: ['cam3_2026-11-16_09-00-00.mp4', 'cam3_2026-11-16_09-02-30.mp4'], refused: [] });
    expect(await t.deps.db.selectFrom('videos').select('id').where('camera_id', '=', cameraId).execute()).toHaveLength(2);
  });

  it('sends again the recordings whose processing failed on the server, and the server processes them', async () => {
    const client = new NormaClient({ server: `http://localhost:${server.port}`, login: 'marker', password: 'secret-pass' });
    const cameraId = w.cameraIds[2]!;
    const videos = () => t.deps.db.selectFrom('videos').select(['id', 'status']).where('camera_id', '=', cameraId).orderBy('start_time').execute();
    const ingest = async (storage = t.deps.storage) => {
      const runner = startWorkers({ db: t.deps.db, storage }, { pollMs: 20 });
      await runner.drain();
      await runner.stop();
    };
    // The recordings could not be read on the server for a while (a disk not mounted): their processing failed.
    await ingest({ ...t.deps.storage, exists: async () => false });
    const failed = await videos();
    expect(failed.map((v) => v.status)).toEqual(['failed', 'failed']);

    const statePath = join(folder, '.norma-loader-state.json');
    rmSync(statePath);
    const context = {
      folder,
      cameraId,
      client,
      statePath,
      state: await loadState(statePath),
      settleMs: 5_000,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      log: () => {},
    };
    const pass = await uploadPass(context);
    expect(pass).toEqual({ uploaded: ['cam3_2026-11-16_09-00-00.mp4', 'cam3_2026-11-16_09-02-30.mp4'], alreadyOnServer: [], refused: [] });
    expect(
      Object.values(context.state.uploaded)
        .map((u) => u.videoId)
        .sort(),
    ).toEqual(failed.map((v) => v.id).sort());
    await ingest();
    expect(await videos()).toEqual(failed.map((v) => ({ id: v.id, status: 'ready' })));
    // Processed: sent no more.
    rmSync(statePath);
    const after = await uploadPass({ ...context, state: await loadState(statePath) });
    expect(after).toEqual({ uploaded: [], alreadyOnServer: ['cam3_2026-11-16_09-00-00.mp4', 'cam3_2026-11-16_09-02-30.mp4'], refused: [] });
  });

  it('stops with a clear message for a camera of another organisation', async () => {
    const client = new NormaClient({ server: `http://localhost:${server.port}`, login: 'marker', password: 'secret-pass' });
    await expect(client.cameraId(w.foreignStructureId, 1)).rejects.toThrow('Структурная единица не найдена');
    await expect(client.upload(w.foreignCameraId, join(folder, 'cam3_2026-11-16_09-00-00.mp4'))).rejects.toThrow('Структурная единица не найдена');
  });
});
