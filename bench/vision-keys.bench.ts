/**
 * Vision (issue 14): how many key presses the model's suggestions save an assessor. A 180 s
 * synthetic scene (640×360, 25 fps H.264) on the real stack: a model trained through the API on the
 * first half, then the second half coded on the markup screen in Chromium by the simulated assessor
 * of tests/support/vision-coding.ts — by operation keys, and with «Размечать по подсказкам» — in one
 * run, each mode on a fresh copy of the video. The PWA must be built (`npm run bench` builds it).
 *   node_modules/.bin/bun bench/vision-keys.bench.ts     → bench/results/vision-keys.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../tests/support/browser';
import { codeSpan, prepareCodingScene, type CodingRun } from '../tests/support/vision-coding';

const SECONDS = 180;
const REACTION_SECONDS = 0.5;
const PATIENCE_SECONDS = 2;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const [scene, browser] = await Promise.all([prepareCodingScene(SECONDS), launchBrowser()]);
const load = [loadavg()[0]!];
try {
  const options = { reactionSeconds: REACTION_SECONDS, patienceSeconds: PATIENCE_SECONDS };
  const byKeys = await codeSpan(browser, scene, scene.freshVideoIds[0]!, 'keys', options);
  load.push(loadavg()[0]!);
  const withSuggestions = await codeSpan(browser, scene, scene.freshVideoIds[1]!, 'suggestions', options);
  load.push(loadavg()[0]!);
  const minutes = (scene.to - scene.from) / 60;
  const summary = (run: CodingRun) => ({
    keys: run.keys,
    setup_clicks: run.setupClicks,
    actions_per_coded_minute: round((run.keys + run.setupClicks) / minutes, 1),
    agreement: round(run.agreement),
    segments_saved: run.segments,
    keys_log: run.log.map((entry) => `${entry.second.toFixed(1)} ${entry.key}`),
  });
  const result = {
    name: 'vision-keys',
    date: new Date().toISOString(),
    runtime: `bun ${Bun.version}`,
    cpus: cpus().length,
    load_average_1m: load.map((value) => round(value, 2)),
    video: { size: '640x360', fps: 25, codec: 'h264', seconds: SECONDS, coded_span: [scene.from, scene.to], truth_segments_in_span: byKeys.truthSegments },
    training_seconds: round(scene.trainingSeconds, 1),
    assessor: { reaction_seconds: REACTION_SECONDS, patience_seconds: PATIENCE_SECONDS },
    by_keys: summary(byKeys),
    with_suggestions: summary(withSuggestions),
    // Key presses and set-up clicks with suggestions over those by keys alone (lower is better).
    actions_ratio: round((withSuggestions.keys + withSuggestions.setupClicks) / byKeys.keys),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dir, 'results', 'vision-keys.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await scene.cleanup();
}
