import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoLeaves } from '../seed/demo-plan';
import { defaultVideoCacheDir, seedDemoIfEmpty } from '../seed/demo';
import { createTestApp, type TestApp } from '../../test-support/testing';

/**
 * Issue 43: «Люди на кадре» (GET /api/v1/humans, MoveNet by default) finds every worker of the
 * demo scene. The demo draws its workers as human figures (workers/src/media/demo-figure.ts); it
 * found none of the plain boxes drawn before. The videos are the demo's own (seeded as `npm start`
 * seeds them, 150 s clips): the first clip of 16.11 of camera 1 of «Участок сборки редукторов»
 * (one worker fills the frame) and of camera 4 (an overview camera: the three workers in rows).
 *
 * The truth was counted by hand: each frame was saved as a picture (`ffmpeg -ss S -i clip.mp4
 * -frames:v 1 frame.png`) and looked at; every worker figure seen was counted and the middle of its
 * shirt read off the picture (pixels of the 640×360 frame). The brown box a passer-by is drawn as
 * (camera 1 at 18 s) is no human figure and was not counted. Each frame's workers are at work:
 * operations of the cycle and, on camera 4, «Подача комплектующих» at the rack.
 */
const TRUTH: { camera: 1 | 4; second: number; workers: { who: string; x: number; y: number }[] }[] = [
  { camera: 1, second: 5, workers: [{ who: 'затяжка крепежа', x: 315, y: 180 }] },
  { camera: 1, second: 18, workers: [{ who: 'сборка редуктора, позади проходит прохожий', x: 205, y: 180 }] },
  { camera: 1, second: 40, workers: [{ who: 'сборка редуктора', x: 205, y: 181 }] },
  { camera: 1, second: 90, workers: [{ who: 'установка подшипника', x: 125, y: 180 }] },
  { camera: 1, second: 110, workers: [{ who: 'затяжка крепежа', x: 314, y: 179 }] },
  {
    camera: 4,
    second: 20,
    workers: [
      { who: 'оранжевый, сборка', x: 196, y: 95 },
      { who: 'голубой, сборка', x: 196, y: 202 },
      { who: 'пурпурный, у стеллажа', x: 516, y: 304 },
    ],
  },
  {
    camera: 4,
    second: 75,
    workers: [
      { who: 'оранжевый, подшипник', x: 116, y: 93 },
      { who: 'голубой, сборка', x: 196, y: 200 },
      { who: 'пурпурный, у стеллажа', x: 516, y: 304 },
    ],
  },
  {
    camera: 4,
    second: 100,
    workers: [
      { who: 'оранжевый, затяжка', x: 307, y: 93 },
      { who: 'голубой, подшипник', x: 116, y: 200 },
      { who: 'пурпурный, у стеллажа', x: 516, y: 304 },
    ],
  },
  {
    camera: 4,
    second: 120,
    workers: [
      { who: 'оранжевый, сборка', x: 196, y: 95 },
      { who: 'голубой, затяжка', x: 306, y: 198 },
      { who: 'пурпурный, подшипник', x: 116, y: 308 },
    ],
  },
  {
    camera: 4,
    second: 130,
    workers: [
      { who: 'оранжевый, сборка', x: 196, y: 95 },
      { who: 'голубой, сборка', x: 196, y: 202 },
      { who: 'пурпурный, подшипник; позади проходит прохожий', x: 116, y: 308 },
    ],
  },
];

const leaf = demoLeaves[0]!;
let t: TestApp;
let cookie: string;
const videoOfCamera = new Map<number, number>();

interface Human {
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
  keypoints?: unknown[];
}

beforeAll(async () => {
  t = await createTestApp();
  const seeded = await seedDemoIfEmpty(t.deps, {
    videoSeconds: 150,
    videoCacheDir: defaultVideoCacheDir(),
    onlyClips: (l, clip) => l.slug === leaf.slug && clip.dayIndex === 0 && clip.clipIndex === 0 && (clip.cameraKey === 1 || clip.cameraKey === 4),
  });
  expect(seeded).toBe(true);
  cookie = await t.signIn('viewer', DEMO_PASSWORD);
  const { db } = t.deps;
  const structure = await db.selectFrom('structures').select('id').where('name', '=', leaf.name).executeTakeFirstOrThrow();
  for (const key of [1, 4]) {
    const camera = await db.selectFrom('cameras').select('id').where('structure_id', '=', structure.id).where('camera_key', '=', key).executeTakeFirstOrThrow();
    const videos = await db.selectFrom('videos').select('id').where('camera_id', '=', camera.id).execute();
    expect(videos).toHaveLength(1);
    videoOfCamera.set(key, videos[0]!.id);
  }
});
afterAll(async () => t?.cleanup());

describe('«Люди на кадре» on the demo scene', () => {
  it('finds every worker the frames show, and nothing else', async () => {
    let found = 0;
    let workers = 0;
    for (const frame of TRUTH) {
      const response = await t.request(`/api/v1/humans?video_id=${videoOfCamera.get(frame.camera)}&second=${frame.second}`, { cookie });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { humans: Human[]; detector: string; width: number; height: number };
      expect(body).toMatchObject({ detector: 'movenet-multipose', width: 640, height: 360 });
      const where = `camera ${frame.camera}, ${frame.second} s`;
      // As many people as workers were counted: a box of the scenery or a passer-by's box is no one.
      expect(body.humans.length, where).toBe(frame.workers.length);
      for (const worker of frame.workers) {
        const holding = body.humans.filter((h) => h.box.x1 <= worker.x && worker.x <= h.box.x2 && h.box.y1 <= worker.y && worker.y <= h.box.y2);
        expect(holding.length, `${where}: ${worker.who}`).toBe(1);
        // The box is the whole figure (about 140 px tall alone in the frame, 84 px in a row of three), not a part of it.
        expect(holding[0]!.box.y2 - holding[0]!.box.y1, `${where}: ${worker.who}`).toBeGreaterThanOrEqual(frame.camera === 1 ? 110 : 65);
        expect(holding[0]!.keypoints).toHaveLength(17);
        found++;
      }
      workers += frame.workers.length;
    }
    expect(found).toBe(workers);
    expect(workers).toBe(20);
  });
});
