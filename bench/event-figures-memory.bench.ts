/**
 * What the job `event_figures` holds in memory when the computation of a long window starts
 * (docs/event-analytics.md «Цифры длинных окон»): the tracks read whole and folded at once (as the job
 * did before, and as a short window is still read per request) against the tracks read in batches of
 * TRACK_BATCH_CHARS and folded one batch at a time (the job now). The heap held after a full
 * collection, less the heap before the read, per character of the window's stored track text — the
 * reference that grows with the window — and the batched figure as a share of the whole one. Both
 * folds must give the same figures (checked here). One camera of a test hall (SQLite), 60 s videos of
 * 20 synthetic walkers of 300 points each, added until each size is reached.
 *   node_modules/.bin/bun bench/event-figures-memory.bench.ts     → bench/results/event-figures-memory.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { FiguresFold } from '../api/src/events/figures';
import { figuresHead, figuresTracks, TRACK_BATCH_CHARS, trackBatches } from '../api/src/events/figures.service';
import { insertTrackedVideo, type StoredTrackPoint } from '../api/test-support/event-trackings';
import { createTestApp } from '../api/test-support/testing';
import { videoWorld } from '../api/test-support/video-fixtures';

const t = await createTestApp();
const w = await videoWorld(t);
const camera = w.cameraIds[0]!;
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

/** The heap a fold holds once built (what the computation starts with), and its figures' JSON; the fold is dropped on return. */
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
const load = { start: loadavg().map((v) => Math.round(v * 10) / 10) };
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

  // Now: one batch read, folded and dropped at a time.
  const measureBatched = () =>
    held(async () => {
      const fold = new FiguresFold(head, window);
      for await (const batch of trackBatches(t.deps.db, trackingIds)) fold.add(batch.tracks);
      return fold;
    });
  // Before: every track read and parsed, then folded while the parsed tracks are still held.
  const measureWhole = () =>
    held(async () => {
      const tracks = (await figuresTracks(t.deps.db, trackingIds))!;
      const fold = new FiguresFold(head, window);
      fold.add(tracks);
      return { fold, tracks };
    });
  // The run's first pair is thrown away: its base held a few MB (of the set-up) that later collections free.
  if (sizes.length === 0) await Promise.resolve().then(measureBatched).then(measureWhole);
  const batched = await measureBatched();
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
const result = {
  name: 'event-figures-memory',
  date: new Date().toISOString(),
  load_average: { ...load, end: loadavg().map((v) => Math.round(v * 10) / 10) },
  track_batch_chars: TRACK_BATCH_CHARS,
  sizes,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'event-figures-memory.json'), `${JSON.stringify(result, null, 2)}\n`);
