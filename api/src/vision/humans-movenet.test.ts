import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { detectByMoveNet, matchFrame } from '@norma/workers/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING, vtestFixture } from '../../../tests/support/vtest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { startMoveNetThreads } from '../threads/movenet-threads';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/**
 * GET /api/v1/humans on real footage (issue 25, docs/vision.md «Детектор людей»): vtest.avi stored
 * as a video; by default MoveNet answers, with boxes on the hand-labelled people of that frame —
 * the one who stands still behind the sign included, whom background subtraction cannot see by
 * design — and pose keypoints; `detector=background-subtraction-blobs` still gives the old one.
 * On the MoveNet threads (as main.ts runs them: two, a strip of the frame each) the answer is the
 * same as in place and as on one thread, and other calls are answered meanwhile.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;

interface Human {
  location: { x: number; y: number };
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
  keypoints?: { name: string; x: number; y: number; score: number }[];
}
const humans = async (query: string, cookie = w.cookies.viewer) => {
  const response = await t.request(`/api/v1/humans?video_id=${videoId}&${query}`, { cookie });
  return { status: response.status, body: (await response.json()) as { humans: Human[]; detector: string; width: number; height: number } };
};

describe.skipIf(VTEST_MISSING)('people on a frame of real footage', () => {
  beforeAll(async () => {
    t = await createTestApp();
    w = await videoWorld(t);
    const key = 'recordings/site/cam1/vtest.avi';
    await mkdir(dirname(t.deps.storage.pathOf(key)), { recursive: true });
    await copyFile(VTEST_AVI, t.deps.storage.pathOf(key));
    videoId = await insertVideo(t.deps.db, w.cameraIds[0]!, { filename: 'vtest.avi', start: Date.UTC(2024, 0, 10, 6), duration: 79.5, key });
  });
  afterAll(async () => t?.cleanup());

  it('answers with MoveNet by default: the labelled people, the one standing still too, with poses', async () => {
    const labelled = vtestFixture().frames.find((f) => f.frame === 125)!;
    const reply = await humans('second=12.5');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ detector: 'movenet-multipose', width: 768, height: 576 });
    const counts = matchFrame(labelled.people, reply.body.humans);
    expect(counts.people).toBe(7);
    expect(counts.truePositives).toBeGreaterThanOrEqual(6);
    expect(counts.falsePositives).toBe(0);
    // The man behind the sign has stood there since frame 75 (second 7.5).
    const standing = labelled.people.find((p) => p.x === 420)!;
    expect(matchFrame([standing], reply.body.humans).truePositives).toBe(1);
    for (const person of reply.body.humans) {
      expect(person.keypoints).toHaveLength(17);
      const wrist = person.keypoints!.find((k) => k.name === 'left_wrist')!;
      expect(wrist.x).toBeGreaterThanOrEqual(person.box.x1 - 20);
      expect(wrist.x).toBeLessThanOrEqual(person.box.x2 + 20);
    }
  });

  it('still answers by background subtraction when asked; bad input is refused', async () => {
    const reply = await humans('second=12.5&detector=background-subtraction-blobs');
    expect(reply.status).toBe(200);
    expect(reply.body.detector).toBe('background-subtraction-blobs');
    expect(reply.body.humans.every((h) => h.keypoints === undefined)).toBe(true);
    expect((await humans('second=12.5&detector=yolo')).status).toBe(400);
    expect((await humans('second=12.5', w.cookies.rival)).status).toBe(404);
  });

  it('on the MoveNet threads: the same answer, and the API answers other calls while MoveNet works', async () => {
    // A second no call has asked (the API remembers 12.5 s from above), so that the thread must really work below.
    const inPlace = await detectByMoveNet({ file: VTEST_AVI, width: 768, height: 576, duration: 79.5 }, 20);
    const thread = startMoveNetThreads();
    t.deps.movenetThread = thread;
    try {
      let onThread: Awaited<ReturnType<typeof humans>> | null = null;
      const call = humans('second=20').then((reply) => (onThread = reply));
      // The threads load their own models first, then infer: all the while this thread
      // answers whoami. In place, inference would hold it and no whoami could finish between turns.
      const answeredMeanwhile: number[] = [];
      while (onThread === null) {
        // A turn of the event loop, so that the thread's reply (a message) can arrive.
        await new Promise((resolve) => setImmediate(resolve));
        const response = await t.request('/api/v1/whoami', { cookie: w.cookies.viewer });
        await response.arrayBuffer();
        if (onThread === null) answeredMeanwhile.push(response.status);
      }
      const reply = await call;
      expect(answeredMeanwhile.length).toBeGreaterThan(1);
      expect(new Set(answeredMeanwhile)).toEqual(new Set([200]));
      expect(reply.body).toMatchObject({ detector: 'movenet-multipose' });
      expect(reply.body.humans).toEqual(inPlace);
      // The threads keep their models: a second call is answered there too.
      expect((await humans('second=40')).body.detector).toBe('movenet-multipose');
    } finally {
      t.deps.movenetThread = undefined;
      thread.close();
    }
  });

  it('two threads, a strip each, find the same people as one thread running both strips and as MoveNet in place', async () => {
    const source = { file: VTEST_AVI, width: 768, height: 576, duration: 79.5 };
    const two = startMoveNetThreads(2);
    const one = startMoveNetThreads(1);
    try {
      // Frame 125 (the man behind the sign) and one more: both threads' strips hold people.
      for (const second of [12.5, 33]) {
        const inPlace = await detectByMoveNet(source, second);
        const [onTwo, onOne] = await Promise.all([two.detect(source, second), one.detect(source, second)]);
        expect(inPlace.length).toBeGreaterThanOrEqual(5);
        expect(onTwo).toEqual(inPlace);
        expect(onOne).toEqual(inPlace);
      }
    } finally {
      two.close();
      one.close();
    }
  });

  it('remembers answers per (video file, second): a frame asked again needs no MoveNet', async () => {
    const first = await humans('second=12.5');
    expect(first.body.detector).toBe('movenet-multipose');
    // A MoveNet that always fails: a remembered frame is still answered by MoveNet, a new one falls back.
    t.deps.movenetThread = { detect: () => Promise.reject(new Error('нет потока')), detectFrame: () => Promise.reject(new Error('нет потока')), close() {} };
    try {
      expect(await humans('second=12.5')).toEqual(first);
      const fresh = await humans('second=13');
      expect(fresh.body).toMatchObject({ detector: 'background-subtraction-blobs', fallback: 'MoveNet не запустился: нет потока' });
    } finally {
      t.deps.movenetThread = undefined;
    }
  });
});
