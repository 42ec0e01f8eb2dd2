import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { withoutServerPaths } from '../jobs/error-text';
import { STORAGE_FULL_ATTEMPTS, STORAGE_FULL_RETRY_BASE_MS } from '../jobs/queue';
import type { ObjectStore } from '../storage/object-store';
import { RETRY_NO_FILE, RETRY_ONLY_FAILED } from './failed-uploads';
import { ALREADY_UPLOADED } from './upload';

/** Issue 39: a recording whose processing failed (a full disk for a while) is processed again — by a button, or by uploading it again. */

let t: TestApp;
let w: VideoWorld;
let clips: Uint8Array<ArrayBuffer>[];

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  clips = [];
  for (const seconds of [2, 3, 4]) {
    const scratch = t.deps.storage.pathOf(`scratch/clip-${seconds}.mp4`);
    await makeClip(scratch, { seconds, faststart: false });
    clips.push(new Uint8Array(await Bun.file(scratch).arrayBuffer()));
  }
});
afterAll(async () => t.cleanup());

const upload = (cameraId: number, filename: string, body: Uint8Array<ArrayBuffer>, cookie = w.cookies.assessor) =>
  t.request(`/api/v1/upload?camera_id=${cameraId}&filename=${filename}`, { method: 'POST', cookie, body, headers: { 'content-type': 'video/mp4' } });
const retry = (videoId: number, cookie = w.cookies.assessor) => t.request(`/api/v1/failed_videos/${videoId}/retry`, { method: 'POST', cookie });
const meta = async (videoId: number) => (await t.request(`/api/v1/video_meta/${videoId}`, { cookie: w.cookies.assessor })).json();
const job = async (jobId: number) => (await t.request(`/api/v1/jobs/${jobId}`, { cookie: w.cookies.assessor })).json();
const failedList = async () => (await t.request(`/api/v1/failed_videos?structure_id=${w.structureId}`, { cookie: w.cookies.viewer })).json();
const hashOf = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
const uploadCheck = async (cameraId: number, bytes: Uint8Array) =>
  (await t.request(`/api/v1/upload_check?camera_id=${cameraId}&content_hash=${hashOf(bytes)}`, { cookie: w.cookies.assessor })).json();

/** Runs the background workers over `storage` until nothing is ready to run (a job waiting for its retry is not). */
async function ingestWith(storage: ObjectStore = t.deps.storage) {
  const runner = startWorkers({ db: t.deps.db, storage }, { pollMs: 20 });
  await runner.drain();
  await runner.stop();
}

/** The error Node gives for a file opened on a full disk: with the file's absolute path. */
const noSpace = (path: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, open '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'open', path });

/** The real store on a full disk: a recording's local copy cannot be made (an S3 store's cache download). */
const fullDisk = (base: ObjectStore): ObjectStore => ({
  ...base,
  async local(key) {
    throw noSpace(base.pathOf(key));
  },
});

/** The real store with its recordings out of reach for a moment (a disk not mounted): every file looks absent. */
const unmounted = (base: ObjectStore): ObjectStore => ({ ...base, exists: async () => false });

describe('a failed ingest', () => {
  it('outlives a full disk: retried later with the paths cut from its error; once attempts are spent, the user retries it and it becomes ready', async () => {
    const response = await upload(w.cameraIds[2]!, 'cam3_2026-11-18_09-00-00.mp4', clips[0]!);
    expect(response.status).toBe(200);
    const { video_id: videoId, job_id: jobId } = await response.json();
    const path = t.deps.storage.pathOf('recordings/site/cam3/cam3_2026-11-18_09-00-00.mp4');

    await ingestWith(fullDisk(t.deps.storage));
    // Three tries in 15 s would not outlive a full disk: it waits a minute and more, with more attempts.
    const waiting = await job(jobId);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, max_attempts: STORAGE_FULL_ATTEMPTS, error: null });
    expect(waiting.last_error).toBe("ENOSPC: no space left on device, open 'cam3_2026-11-18_09-00-00.mp4'");
    const row = await t.deps.db.selectFrom('jobs').select(['run_after', 'updated_at']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row.run_after - row.updated_at).toBe(STORAGE_FULL_RETRY_BASE_MS);
    const queued = await meta(videoId);
    expect(queued).toMatchObject({ status: 'queued' });
    expect(queued.error).toBe("Повторная попытка после ошибки: ENOSPC: no space left on device, open 'cam3_2026-11-18_09-00-00.mp4'");

    // The hour is over and the disk still full: the last attempt fails for good.
    await t.deps.db
      .updateTable('jobs')
      .set({ attempts: STORAGE_FULL_ATTEMPTS - 1, run_after: Date.now() })
      .where('id', '=', jobId)
      .execute();
    await ingestWith(fullDisk(t.deps.storage));
    expect(await job(jobId)).toMatchObject({ status: 'failed', error: "ENOSPC: no space left on device, open 'cam3_2026-11-18_09-00-00.mp4'" });
    const listed = await failedList();
    expect(listed).toEqual([expect.objectContaining({ id: videoId, filename: 'cam3_2026-11-18_09-00-00.mp4' })]);
    for (const shown of [listed[0].error, (await meta(videoId)).error, (await job(jobId)).error]) {
      expect(shown).toMatch(/no space left on device/);
      expect(shown).not.toContain(path);
      expect(shown).not.toContain(tmpdir());
      expect(shown).not.toContain('/');
    }

    // The disk is freed: the user's retry processes it.
    expect((await retry(videoId, w.cookies.viewer)).status).toBe(403);
    expect((await retry(videoId, w.cookies.rival)).status).toBe(404);
    expect((await retry(999_999)).status).toBe(404);
    const retried = await retry(videoId);
    expect(retried.status).toBe(200);
    const { job_id: newJobId } = await retried.json();
    expect(newJobId).not.toBe(jobId);
    expect(await meta(videoId)).toMatchObject({ status: 'queued', error: null, job_id: newJobId });
    expect(await failedList()).toEqual([]);
    const again = await retry(videoId);
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe(RETRY_ONLY_FAILED);

    await ingestWith();
    expect(await job(newJobId)).toMatchObject({ status: 'success' });
    expect(await meta(videoId)).toMatchObject({ status: 'ready', error: null });
    const activities = await (await t.request(`/api/v1/activities?video_id=${videoId}`, { cookie: w.cookies.assessor })).json();
    expect(activities[0]).toMatchObject({ author_name: 'Мария Разметчица', comment: 'Обработка запущена повторно' });
    expect((await retry(videoId)).status).toBe(409);
  });

  it('whose file is gone is not retried (409: upload it again), and the same bytes uploaded again are processed, not a 409', async () => {
    const response = await upload(w.cameraIds[1]!, 'cam2_2026-11-18_10-00-00.mp4', clips[1]!);
    const { video_id: videoId } = await response.json();
    const key = 'recordings/site/cam2/cam2_2026-11-18_10-00-00.mp4';
    await t.deps.storage.move(key, 'scratch/lost.mp4');
    await ingestWith();
    expect(await meta(videoId)).toMatchObject({ status: 'failed', error: 'Файл записи не найден в хранилище' });
    const refused = await retry(videoId);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(RETRY_NO_FILE);

    // The loader asks first: a failed recording is not «there», so it sends the file.
    expect(await uploadCheck(w.cameraIds[1]!, clips[1]!)).toEqual({ exists: false, video_id: videoId, status: 'failed' });
    const again = await upload(w.cameraIds[1]!, 'renamed-copy.mp4', clips[1]!);
    expect(again.status).toBe(200);
    const reply = await again.json();
    expect(reply).toMatchObject({ video_id: videoId, filename: 'cam2_2026-11-18_10-00-00.mp4' });
    expect(new Uint8Array(await t.deps.storage.file(key).arrayBuffer())).toEqual(clips[1]);
    expect(await meta(videoId)).toMatchObject({ status: 'queued', error: null, job_id: reply.job_id });
    await ingestWith();
    expect(await meta(videoId)).toMatchObject({ status: 'ready' });
    expect(await job(reply.job_id)).toMatchObject({ status: 'success' });

    // Ready: the same bytes again are a duplicate.
    expect(await uploadCheck(w.cameraIds[1]!, clips[1]!)).toEqual({ exists: true, video_id: videoId, status: 'ready' });
    const duplicate = await upload(w.cameraIds[1]!, 'cam2_2026-11-18_10-00-00.mp4', clips[1]!);
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ error: { code: 'conflict', message: ALREADY_UPLOADED, details: { video_id: videoId } } });
    expect(readdirSync(t.deps.storage.pathOf('recordings/site/cam2'))).toEqual(['cam2_2026-11-18_10-00-00.mp4']);
  });

  it('whose file is still there is processed again when the same recording is uploaded, keeping one file', async () => {
    const response = await upload(w.cameraIds[3]!, 'cam4_2026-11-18_11-00-00.mp4', clips[2]!);
    const { video_id: videoId } = await response.json();
    await ingestWith(unmounted(t.deps.storage));
    expect(await meta(videoId)).toMatchObject({ status: 'failed' });
    const again = await upload(w.cameraIds[3]!, 'cam4_2026-11-18_11-00-00.mp4', clips[2]!);
    expect(again.status).toBe(200);
    // Queued again: the same bytes once more are a duplicate.
    expect((await upload(w.cameraIds[3]!, 'cam4_2026-11-18_11-00-00.mp4', clips[2]!)).status).toBe(409);
    await ingestWith();
    expect(await meta(videoId)).toMatchObject({ status: 'ready', filename: 'cam4_2026-11-18_11-00-00.mp4' });
    expect(readdirSync(t.deps.storage.pathOf('recordings/site/cam4'))).toEqual(['cam4_2026-11-18_11-00-00.mp4']);
    expect(await t.deps.db.selectFrom('videos').select('id').where('camera_id', '=', w.cameraIds[3]!).execute()).toEqual([{ id: videoId }]);
  });

  it('whose file has changed since (cut short) takes the uploaded bytes beside it, and the changed file goes', async () => {
    const response = await upload(w.cameraIds[0]!, 'cam1_2026-11-18_12-00-00.mp4', clips[0]!);
    const { video_id: videoId } = await response.json();
    await ingestWith(unmounted(t.deps.storage));
    expect(await meta(videoId)).toMatchObject({ status: 'failed' });
    const key = 'recordings/site/cam1/cam1_2026-11-18_12-00-00.mp4';
    await t.deps.storage.put(key, clips[0]!.slice(0, 1000));
    const again = await upload(w.cameraIds[0]!, 'cam1_2026-11-18_12-00-00.mp4', clips[0]!);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ video_id: videoId, filename: 'cam1_2026-11-18_12-00-00~2.mp4' });
    await ingestWith();
    expect(await meta(videoId)).toMatchObject({ status: 'ready', filename: 'cam1_2026-11-18_12-00-00~2.mp4' });
    expect(readdirSync(t.deps.storage.pathOf('recordings/site/cam1'))).toEqual(['cam1_2026-11-18_12-00-00~2.mp4']);
  });
});

describe('a job error as users see it', () => {
  it('has every absolute path cut to its file name, and nothing else changed', () => {
    const dataDir = t.config.dataDir;
    expect(withoutServerPaths(`ENOSPC: no space left on device, write '${dataDir}/objects/rec/1/.ingest-5.mp4'`)).toBe(
      "ENOSPC: no space left on device, write '.ingest-5.mp4'",
    );
    expect(
      withoutServerPaths(
        'ffmpeg завершился с кодом 1: [out#0/mp4 @ 0x55] Error opening output /srv/norma/objects/rec/1/.ingest-5.mp4: No space left on device',
      ),
    ).toBe('ffmpeg завершился с кодом 1: [out#0/mp4 @ 0x55] Error opening output .ingest-5.mp4: No space left on device');
    expect(withoutServerPaths('file:/var/lib/norma/objects/x.mp4 и C:\\Norma\\data\\objects\\y.mp4')).toBe('x.mp4 и y.mp4');
    for (const kept of ['Файл записи не найден в хранилище', 'ключ recordings/site/cam1/a.mp4, 1/2 кадра, https://example.com/a/b']) {
      expect(withoutServerPaths(kept)).toBe(kept);
    }
  });
});
