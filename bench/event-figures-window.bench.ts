/**
 * How long a request's own computation of a hall's figures takes as the window's stored track text
 * grows (docs/event-analytics.md «Цифры длинных окон»: where STORED_FIGURES_CHARS lies): the reads,
 * parsing, figuresOf and the reply's JSON, as GET /api/v1/event/figures computes a short window. One
 * camera of a test hall (SQLite), 60 s videos of 20 synthetic walkers of 300 points each, added until
 * each size is reached; the median of three computations per size.
 *   node_modules/.bin/bun bench/event-figures-window.bench.ts     → bench/results/event-figures-window.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { figuresHead, figuresTracks, STORED_FIGURES_CHARS } from '../api/src/events/figures.service';
import { figuresOf } from '../api/src/events/figures';
import { insertTrackedVideo, type StoredTrackPoint } from '../api/test-support/event-trackings';
import { createTestApp } from '../api/test-support/testing';
import { videoWorld } from '../api/test-support/video-fixtures';

const t = await createTestApp();
const w = await videoWorld(t);
const camera = w.cameraIds[0]!;
const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const track = (seed: number): StoredTrackPoint[] =>
  Array.from({ length: 300 }, (_, i) => [i * 5, i / 5, 10 + ((seed * 7 + i) % 180), 10 + ((seed * 13 + i / 2) % 170), 10, 20, 0.9]);
let videos = 0;
let chars = 0;
const sizes: { chars: number; points: number; ms: number }[] = [];
const load = { start: loadavg().map((v) => Math.round(v * 10) / 10) };
for (const target of [1e6, 2.5e6, 5e6, 1e7, 2e7]) {
  while (chars < target) {
    await insertTrackedVideo(
      t.deps.db,
      camera,
      { filename: `v${videos}.mp4`, start: T0 + videos * 60_000 },
      Array.from({ length: 20 }, (_, i) => track(videos * 20 + i)),
    );
    videos++;
    chars = (await figuresHead(t.deps.db, { structureId: w.structureId, fromMs: T0, toMs: T0 + 7 * 86_400_000 })).chars;
  }
  const window = { structureId: w.structureId, fromMs: T0, toMs: T0 + 7 * 86_400_000 };
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    const head = await figuresHead(t.deps.db, window);
    const tracks = (await figuresTracks(
      t.deps.db,
      head.runs.map((x) => x.trackingId),
    ))!;
    const f = figuresOf({ ...head, tracks }, window);
    JSON.stringify(f);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  sizes.push({ chars, points: videos * 20 * 300, ms: Math.round(times[1]!) });
}
await t.cleanup();
const result = {
  name: 'event-figures-window',
  date: new Date().toISOString(),
  load_average: { ...load, end: loadavg().map((v) => Math.round(v * 10) / 10) },
  stored_figures_chars: STORED_FIGURES_CHARS,
  sizes,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'event-figures-window.json'), `${JSON.stringify(result, null, 2)}\n`);
