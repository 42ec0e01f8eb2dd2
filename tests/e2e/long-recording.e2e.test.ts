import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLongRecording } from '../../workers/test-support/test-clips';
import { RETRY, watchErrors } from '../support/browser';
import { startCameraFolderApp, type CameraFolderApp } from '../support/camera-folder';

/**
 * Issue 47, cold open of a long recording: one whose index (`moov`) is over a megabyte is stored in
 * fragments with a segment index (workers/src/media/ingest.ts, docs/video-storage.md «Длинные записи»), and
 * Chromium plays it as it played the original — its whole length, and a seek far into it shows the
 * frame of that moment (compared with the same frame decoded by ffmpeg from the uploaded file).
 */
let app: CameraFolderApp;

beforeAll(async () => {
  app = await startCameraFolderApp('norma-long-recording-');
});
afterAll(async () => {
  await app?.stop();
});

/** The 64×64 RGBA frame at `seconds` of `path`, as ffmpeg decodes it (accurate seek). */
const ffmpegFrame = (path: string, seconds: number) =>
  execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', String(seconds), '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], {
    maxBuffer: 1 << 20,
  });

const meanDifference = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4)
    for (let c = 0; c < 3; c++) {
      sum += Math.abs(a[i + c]! - b[i + c]!);
      count++;
    }
  return sum / count;
};

describe('a 40-minute recording with a 1.4 MB index in Chromium', () => {
  it('is stored in fragments, plays its whole length, and a seek to 35:12.48 shows that moment’s frame', async () => {
    const { server, page, cookie } = app;
    const original = join(app.dataDir, 'forty-minutes.mp4');
    await makeLongRecording(original, { minutes: 40 });
    const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${app.cameraId}&filename=cam1_2026-11-16_09-00-00.mp4`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'video/mp4', origin: server.url },
      body: readFileSync(original),
    });
    expect(upload.status).toBe(200);
    const { job_id: jobId, video_id: videoId } = (await upload.json()) as { job_id: number; video_id: number };
    await expect.poll(() => app.jobStatus(jobId), { ...RETRY, interval: 200 }).toBe('success');
    const job = (await (await fetch(`${server.url}/api/v1/jobs/${jobId}`, { headers: { cookie } })).json()) as {
      result: { action: string; reasons: string[]; duration: number };
    };
    expect(job.result.action).toBe('remux');
    expect(job.result.reasons.join(' ')).toMatch(/индекс \(moov\) 1,\d МБ/);
    expect(Math.abs(job.result.duration - 2400)).toBeLessThan(0.1);

    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/video/${videoId}`);
    const video = page.locator('.player video');
    await video.waitFor();
    await page.waitForFunction(() => ((document.querySelector('.player video') as HTMLVideoElement | null)?.readyState ?? 0) >= 2, undefined, RETRY);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(2400, 1);

    const at = 35 * 60 + 12.48;
    const frame = await video.evaluate(
      (v: HTMLVideoElement, seconds) =>
        new Promise<number[]>((done) => {
          v.pause();
          // After 'seeked' the element holds the sought frame (readyState ≥ 2): drawn as it is shown.
          v.addEventListener(
            'seeked',
            () => {
              const canvas = document.createElement('canvas');
              canvas.width = v.videoWidth;
              canvas.height = v.videoHeight;
              const context = canvas.getContext('2d')!;
              context.drawImage(v, 0, 0);
              done([...context.getImageData(0, 0, canvas.width, canvas.height).data]);
            },
            { once: true },
          );
          v.currentTime = seconds;
        }),
      at,
    );
    expect(frame).toHaveLength(64 * 64 * 4);
    const same = meanDifference(frame, ffmpegFrame(original, at));
    const later = meanDifference(frame, ffmpegFrame(original, at + 0.5));
    console.log(`mean difference from ffmpeg's frame at ${at} s: ${same.toFixed(2)}; at ${at + 0.5} s: ${later.toFixed(2)}`);
    expect(same, `отличие от кадра ${at} с: ${same}, от кадра на 0,5 с позже: ${later}`).toBeLessThan(later / 2);
    expect(errors).toEqual([]);
  });
});
