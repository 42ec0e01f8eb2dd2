/**
 * How long a request's own computation of a hall's figures takes as the window's stored track text
 * grows (docs/event-analytics.md «Цифры длинных окон»: where STORED_FIGURES_CHARS lies): the reads,
 * parsing, figuresOf and the reply's JSON, as GET /api/v1/event/figures computes a short window. One
 * camera of a test hall (SQLite), 60 s videos of 20 synthetic walkers of 300 points each, added until
 * each size is reached; the median of three computations per size.
 *   node_modules/.bin/bun bench/event-figures-window.bench.ts     → bench/results/event-figures-window.json
 */
import { figuresHead, figuresTracks, STORED_FIGURES_CHARS } from '../api/src/events/figures.service';
import { figuresOf } from '../api/src/events/figures';
import { figuresWindowWorld } from './support/figures-window';
import { loadAverage, writeResult } from './support/results';

const { db, window, growTo, cleanup } = await figuresWindowWorld();
const sizes: { chars: number; points: number; ms: number }[] = [];
const load = { start: loadAverage() };
for (const target of [1e6, 2.5e6, 5e6, 1e7, 2e7]) {
  const { chars, points } = await growTo(target);
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    const head = await figuresHead(db, window);
    const tracks = (await figuresTracks(
      db,
      head.runs.map((x) => x.trackingId),
    ))!;
    const f = figuresOf({ ...head, tracks }, window);
    JSON.stringify(f);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  sizes.push({ chars, points, ms: Math.round(times[1]!) });
}
await cleanup();
const result = {
  name: 'event-figures-window',
  date: new Date().toISOString(),
  load_average: { ...load, end: loadAverage() },
  stored_figures_chars: STORED_FIGURES_CHARS,
  sizes,
};
writeResult('event-figures-window', result);
