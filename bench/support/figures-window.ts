import { figuresHead } from '../../api/src/events/figures.service';
import { insertTrackedVideo, type StoredTrackPoint } from '../../api/test-support/event-trackings';
import { createTestApp } from '../../api/test-support/testing';
import { videoWorld } from '../../api/test-support/video-fixtures';

const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const WALKERS = 20;
const POINTS = 300;

/** A synthetic walker's stored track: 300 points, one each 0.2 s of the 60 s video, wandering over the 200×200 frame. */
const track = (seed: number): StoredTrackPoint[] =>
  Array.from({ length: POINTS }, (_, i) => [i * 5, i / 5, 10 + ((seed * 7 + i) % 180), 10 + ((seed * 13 + i / 2) % 170), 10, 20, 0.9]);

/**
 * The long window of the benches of a hall's figures (docs/event-analytics.md «Цифры длинных окон»):
 * one camera of a test hall (SQLite) and a week from T0. `growTo(target)` adds 60 s videos of 20
 * synthetic walkers of 300 points each until the window's stored track text reaches `target`
 * characters, and says how much it holds.
 */
export async function figuresWindowWorld() {
  const t = await createTestApp();
  const w = await videoWorld(t);
  const camera = w.cameraIds[0]!;
  const window = { structureId: w.structureId, fromMs: T0, toMs: T0 + 7 * 86_400_000 };
  let videos = 0;
  let chars = 0;
  const growTo = async (target: number) => {
    while (chars < target) {
      await insertTrackedVideo(
        t.deps.db,
        camera,
        { filename: `v${videos}.mp4`, start: T0 + videos * 60_000 },
        Array.from({ length: WALKERS }, (_, i) => track(videos * WALKERS + i)),
      );
      videos++;
      chars = (await figuresHead(t.deps.db, window)).chars;
    }
    return { chars, points: videos * WALKERS * POINTS };
  };
  return { db: t.deps.db, window, growTo, cleanup: () => t.cleanup() };
}
