import { makeSceneClip, sceneBoxDetector, sceneSchedule } from '../../../workers/test-support/vision-scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { HUMAN_DETECTOR_KEY } from './service';

/**
 * GET /api/v1/humans with an ONNX person detector placed in the model store (docs/vision.md «Люди
 * на кадре»): a real detector graph (workers/test-support/scene-detector.ts) that finds the red and
 * the blue box of the synthetic scene; the call must use it, return its boxes where the boxes are on
 * that frame, and answer 422 with a clear text for a detector it cannot use — never 500.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;
// C (blue box moving on the right) 0–3 s, B (red box standing at 120,140, 80×80) 3–6 s, idle 6–11 s.
const schedule = sceneSchedule(14);

interface Human {
  location: { x: number; y: number };
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
}

const humans = async (second: number) => {
  const response = await t.request(`/api/v1/humans?video_id=${videoId}&second=${second}`, { cookie: w.cookies.viewer });
  return { status: response.status, body: (await response.json()) as { humans: Human[]; detector: string; error?: { code: string; message: string } } };
};
const place = (bytes: Uint8Array) => t.deps.storage.put(HUMAN_DETECTOR_KEY, bytes);

beforeAll(async () => {
  expect(schedule.slice(0, 3).map((s) => s.operation)).toEqual(['C', 'B', 'idle']);
  t = await createTestApp();
  w = await videoWorld(t);
  const key = 'recordings/site/cam1/people.mp4';
  await makeSceneClip(t.deps.storage.pathOf(key), schedule, { fps: 10 });
  videoId = await insertVideo(t.deps.db, w.cameraIds[0]!, { filename: 'people.mp4', start: Date.UTC(2024, 0, 10, 6), duration: 14, key });
});
afterAll(async () => t.cleanup());

describe('people on a frame with an ONNX detector in the model store', () => {
  it('uses the detector and returns its boxes, which follow the frame', async () => {
    await place(sceneBoxDetector());
    // B: the red box stands at 120–200 × 140–220 of the 640×360 frame (detector input 160×90: ×4).
    const standing = await humans(4.5);
    expect(standing.status).toBe(200);
    expect(standing.body.detector).toBe('onnx-person-detector');
    expect(standing.body.humans).toHaveLength(1);
    const [red] = standing.body.humans;
    expect(red!.score).toBe(1);
    for (const [got, want] of [
      [red!.box.x1, 120],
      [red!.box.y1, 140],
      [red!.box.x2, 200],
      [red!.box.y2, 220],
      [red!.location.x, 160],
      [red!.location.y, 180],
    ])
      expect(Math.abs(got! - want!)).toBeLessThanOrEqual(8);

    // C at 1.5 s: the blue box (80×80) moves on the right, at x = 380 + mod(150 · 1.5, 160) = 445, y = 140.
    const moving = await humans(1.5);
    expect(moving.body.detector).toBe('onnx-person-detector');
    expect(moving.body.humans).toHaveLength(1);
    const [blue] = moving.body.humans;
    expect(Math.abs(blue!.location.x - 485)).toBeLessThanOrEqual(20);
    expect(Math.abs(blue!.location.y - 180)).toBeLessThanOrEqual(8);

    // Idle: nobody on the frame, nobody found.
    const empty = await humans(8.5);
    expect(empty.body).toMatchObject({ detector: 'onnx-person-detector', humans: [] });
  });

  it('reads the [1, K, 5] answer as well', async () => {
    await place(sceneBoxDetector({ batched: true }));
    const reply = await humans(4.5);
    expect(reply.body.detector).toBe('onnx-person-detector');
    expect(reply.body.humans.map((h) => [Math.round(h.location.x / 10), Math.round(h.location.y / 10)])).toEqual([[16, 18]]);
  });

  it('answers 422 with a clear text for a detector it cannot use, and keeps serving', async () => {
    const good = sceneBoxDetector();
    const cases: [Uint8Array, RegExp][] = [
      [new TextEncoder().encode('это не ONNX, а просто текст'), /^(Детектор людей не подходит|Файл детектора людей не читается)/],
      [good.slice(0, Math.floor(good.length / 2)), /^(Детектор людей не подходит|Файл детектора людей не читается)/],
      [sceneBoxDetector({ width: 0 }), /^Детектор людей не подходит .*вход не \[1, 3, H, W\]/],
      [sceneBoxDetector({ fourColumns: true }), /^Детектор людей ответил не так .*\[2, 4\]/],
    ];
    for (const [bytes, message] of cases) {
      await place(bytes);
      const reply = await humans(4.5);
      expect(reply.status).toBe(422);
      expect(reply.body.error?.code).toBe('model_unusable');
      expect(reply.body.error?.message).toMatch(message);
    }
    // Removed from the store: the default MoveNet answers again, named as such.
    await t.deps.storage.remove(HUMAN_DETECTOR_KEY);
    const fallback = await humans(1.5);
    expect(fallback.status).toBe(200);
    expect(fallback.body.detector).toBe('movenet-multipose');
    await place(good);
    expect((await humans(4.5)).body.humans).toHaveLength(1);
  });
});
