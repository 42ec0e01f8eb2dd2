/**
 * What the job `event_figures` holds in memory once every track of a long window is folded in, just
 * before the figures are given out (docs/event-analytics.md «Память задачи»): the tracks read whole
 * and folded (as a short window is still read per request) against the tracks read in batches of
 * TRACK_BATCH_CHARS, twice (extents, then figures), each batch folded track by track and dropped (the
 * job). The heap held after a full collection, less the heap before the read, per character of the
 * window's stored track text — the reference that grows with the window —, the batched figure as a
 * share of the whole one, and `batched_growth_share`: how much the batched heap grows from the smallest
 * window to the largest, as a share of how much the whole one grows (0 — flat). Both must give the same figures (checked here). One calibrated camera of a test
 * hall (SQLite) with a stand, a zone and a safe zone, 60 s videos of 20 synthetic walkers of 300 points
 * each, added until each size is reached.
 *   node_modules/.bin/bun bench/event-figures-memory.bench.ts     → bench/results/event-figures-memory.json
 */
import { FiguresFold } from '../api/src/events/figures';
import { figuresHead, figuresTracks, TRACK_BATCH_CHARS, trackBatches } from '../api/src/events/figures.service';
import { insertTrackedVideo, type StoredTrackPoint } from '../api/test-support/event-trackings';
import { createTestApp } from '../api/test-support/testing';
import { videoWorld } from '../api/test-support/video-fixtures';
import { loadAverage, writeResult } from './support/results';

const t = await createTestApp();
const w = await videoWorld(t);
const camera = w.cameraIds[0]!;
// 10 pixels a metre: the 200-pixel frame is a 20 m hall; the walkers cross the stand, the zone and the safe zone.
const send = async (method: string, path: string, body: unknown) => {
  const response = await t.request(path, { method, cookie: w.cookies.admin, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status}`);
};
const square = (x: number, y: number, side: number): [number, number][] => [
  [x, y],
  [x + side, y],
  [x + side, y + side],
  [x, y + side],
];
await send('PUT', `/api/v1/event/calibration?camera_id=${camera}`, {
  frame_width: 200,
  frame_height: 200,
  image_points: square(0, 0, 200),
  plan_points: square(0, 0, 20),
});
const zone = (name: string, role: string, shape: unknown) => send('POST', '/api/v1/event/zone', { structure_id: w.structureId, name, role, shape });
await zone('Стенд 1', 'stand', { type: 'circle', center: [8, 8], radius: 1.5 });
await zone('Проход', 'zone', { type: 'polygon', points: square(2, 2, 4) });
await zone('Станок', 'safe', { type: 'polygon', points: square(14, 12, 1.5) });
const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const window = { structureId: w.structureId, fromMs: T0, toMs: T0 + 7 * 86_400_000 };
const track = (seed: number): StoredTrackPoint[] =>
  Array.from({ length: 300 }, (_, i) => [i * 5, i / 5, 10 + ((seed * 7 + i) % 180), 10 + ((seed * 13 + i / 2) % 170), 10, 20, 0.9]);

/**
 * The heap in use after a full collection, bytes. Back to the event loop first: the collector scans the
 * stack conservatively, and a stale slot of the call before would keep its objects alive.
 */
const heldBytes = async () => {
  for (let i = 0; i < 3; i++) {
    await Bun.sleep(10);
    Bun.gc(true);
  }
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** The heap a fold holds once every track is folded in (what the figures are given out from), and its figures' JSON; the fold is dropped on return. */
async function held(build: () => Promise<FiguresFold | { fold: FiguresFold; tracks: unknown }>) {
  const base = await heldBytes();
  const kept = await build();
  const bytes = (await heldBytes()) - base;
  const fold = kept instanceof FiguresFold ? kept : kept.fold;
  return { bytes, figures: JSON.stringify(fold.figures()) };
}

let videos = 0;
let chars = 0;
const sizes: {
  /** The window's stored text, as the budgets name the row («5.2 M»). */
  case: string;
  chars: number;
  points: number;
  whole_mb: number;
  batched_mb: number;
  whole_bytes_per_char: number;
  batched_bytes_per_char: number;
  batched_share: number;
}[] = [];
const load = { start: loadAverage() };
for (const target of [2.5e6, 5e6, 1e7, 2e7]) {
  while (chars < target) {
    await insertTrackedVideo(
      t.deps.db,
      camera,
      { filename: `v${videos}.mp4`, start: T0 + videos * 60_000 },
      Array.from({ length: 20 }, (_, i) => track(videos * 20 + i)),
    );
    videos++;
    chars = (await figuresHead(t.deps.db, window)).chars;
  }
  const head = await figuresHead(t.deps.db, window);
  const trackingIds = head.runs.map((r) => r.trackingId);

  // The job: one batch read, folded and dropped at a time, in two passes (extents, then figures).
  const measureBatched = () =>
    held(async () => {
      const fold = new FiguresFold(head, window);
      for await (const batch of trackBatches(t.deps.db, trackingIds)) fold.measure(batch.tracks);
      for await (const batch of trackBatches(t.deps.db, trackingIds)) fold.add(batch.tracks);
      return fold;
    });
  // The reference: every track read and parsed, then folded while the parsed tracks are still held.
  const measureWhole = () =>
    held(async () => {
      const tracks = (await figuresTracks(t.deps.db, trackingIds))!;
      const fold = new FiguresFold(head, window);
      fold.measure(tracks);
      fold.add(tracks);
      return { fold, tracks };
    });
  // The run's first pair is thrown away: its base held a few MB (of the set-up) that later collections free.
  if (sizes.length === 0) await Promise.resolve().then(measureBatched).then(measureWhole);
  // The batched heap is a few MB, near the collector's noise: the median of three.
  const runs = [await measureBatched(), await measureBatched(), await measureBatched()].sort((a, b) => a.bytes - b.bytes);
  const batched = runs[1]!;
  const whole = await measureWhole();
  if (batched.figures !== whole.figures) throw new Error('the batched fold gave other figures');
  const [batchedBytes, wholeBytes] = [batched.bytes, whole.bytes];

  sizes.push({
    case: `${(chars / 1e6).toFixed(1)} M`,
    chars,
    points: videos * 20 * 300,
    whole_mb: mb(wholeBytes),
    batched_mb: mb(batchedBytes),
    whole_bytes_per_char: Math.round((wholeBytes / chars) * 100) / 100,
    batched_bytes_per_char: Math.round((batchedBytes / chars) * 100) / 100,
    batched_share: Math.round((batchedBytes / wholeBytes) * 100) / 100,
  });
}
await t.cleanup();
const first = sizes[0]!;
const last = sizes[sizes.length - 1]!;
writeResult('event-figures-memory', {
  name: 'event-figures-memory',
  date: new Date().toISOString(),
  load_average: { ...load, end: loadAverage() },
  track_batch_chars: TRACK_BATCH_CHARS,
  /**
   * Flatness: the batched held heap's growth from the smallest window to the largest over the whole
   * read's growth (0 — flat; the plan points the job held before grew about half as fast as the whole
   * read). A ratio of growths, not of the heaps: the batched heap at the smallest window is within the
   * collector's noise of zero.
   */
  batched_growth_share: Math.round(((last.batched_mb - first.batched_mb) / (last.whole_mb - first.whole_mb)) * 1000) / 1000,
  batched_growth_mb: Math.round((last.batched_mb - first.batched_mb) * 10) / 10,
  window_growth: Math.round((last.chars / first.chars) * 100) / 100,
  sizes,
});
