import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { sceneOperationAt, type SceneOperation, type SceneSegment } from '../../workers/test-support/vision-scene';
import { signInThroughPage } from './browser';
import { STATE_WAIT_MS } from './wait';
import { SCENE_OPERATION_NAMES, SCENE_PASSWORD, seedSceneWorld } from './scene-world';
import { apiSessionCookie, startServer, type RunningServer } from './server';

/**
 * Coding a video with and without the model's suggestions (issue 14, docs/vision.md «Сколько
 * нажатий экономит подсказка»), shared by the e2e test and `bench/vision-keys.bench.ts`.
 *
 * The synthetic scene (workers/test-support/vision-scene.ts, real 25 fps H.264) is stored three times
 * on one camera: a model is trained through the API on the first half of the first copy, marked
 * as the scene's schedule says; then a simulated assessor codes the second half of another copy
 * on the real markup screen in Chromium — once by operation keys alone, once with «Размечать по
 * подсказкам» on, correcting the model only where it is wrong — and every key press is counted.
 */

export interface CodingScene {
  server: RunningServer;
  structureId: number;
  schedule: SceneSegment[];
  /** The span coded: the second half, seconds. */
  from: number;
  to: number;
  /** Copies of the clip that nobody has marked: one per coding run. */
  freshVideoIds: number[];
  modelId: number;
  trainingSeconds: number;
  cleanup(): Promise<void>;
}

/** Stores the scene (real 25 fps), marks the first half of one copy, trains a model on it through the API and waits until it is stored. */
export async function prepareCodingScene(seconds: number, freshCopies = 2): Promise<CodingScene> {
  const half = seconds / 2;
  const world = await seedSceneWorld({ seconds, fps: 25, copies: freshCopies + 1, markedUntil: half });
  const server = await startServer({}, { dataDir: world.dataDir });
  const cleanup = async () => {
    await server.stop();
    rmSync(world.dataDir, { recursive: true, force: true });
  };
  try {
    const cookie = await apiSessionCookie(server.url, 'lead', SCENE_PASSWORD);
    const started = performance.now();
    const training = await fetch(`${server.url}/api/v1/start_marker_training`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        workplace_id: world.workplaceId,
        operation_ids: Object.values(world.operationIds),
        marked_video_id: world.videoIds[0],
        video_area_ids: world.areaIds,
        start_second: 0,
        end_second: half,
        comment: 'первая половина сцены',
      }),
    });
    if (!training.ok) throw new Error(`training: ${training.status} ${await training.text()}`);
    const { model_id: modelId } = (await training.json()) as { model_id: number };
    for (;;) {
      const reply = (await (await fetch(`${server.url}/api/v1/model/${modelId}`, { headers: { cookie } })).json()) as {
        meta: { status: string; error: string | null };
      };
      if (reply.meta.status === 'trained') break;
      if (reply.meta.status === 'failed') throw new Error(`training failed: ${reply.meta.error}`);
      if (performance.now() - started > 300_000) throw new Error('training did not finish in 5 minutes');
      await Bun.sleep(250);
    }
    return {
      server,
      structureId: world.structureId,
      schedule: world.schedule,
      from: half,
      to: seconds,
      freshVideoIds: world.videoIds.slice(1),
      modelId,
      trainingSeconds: (performance.now() - started) / 1000,
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export interface CodingRun {
  mode: 'keys' | 'suggestions';
  /** Key presses during coding, the play and save keys included. */
  keys: number;
  /** One-off set-up clicks before playing (choosing the model, the follow switch). */
  setupClicks: number;
  /** Share of the span's 0.1 s steps whose saved coding equals the truth (no operation for idle). */
  agreement: number;
  /** Coded segments saved in the span. */
  segments: number;
  /** Truth segments in the span. */
  truthSegments: number;
  /** Each key, with the video second it was pressed at. */
  log: { second: number; key: string }[];
  /** What the assessor saw change: the suggestion shown and the operation being coded (for a failure's message). */
  trace: string[];
}

/** What the assessor sees, read at once: the playhead and the operation being coded (the pressed operation button). */
const look = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector('video');
    const pressed = document.querySelector('[data-testid="op-buttons"] button[aria-pressed="true"] .op-button-name');
    const suggestion = document.querySelector('[data-testid="suggestion"] strong');
    return { second: video?.currentTime ?? 0, ended: !!video?.ended, coding: pressed?.textContent ?? null, suggestion: suggestion?.textContent ?? null };
  });

/**
 * The simulated assessor codes [from, to) of `videoId` on the markup screen. It knows the truth (it
 * sees the video) and reacts `reactionSeconds` after each change. By keys: at every change it presses
 * the new operation's key (Enter for idle). With suggestions: it chooses the model, turns on
 * «Размечать по подсказкам» and presses a key only when the operation being coded has differed from
 * what it sees for `patienceSeconds` (the model's settling time), to correct it.
 */
export async function codeSpan(
  browser: Browser,
  scene: CodingScene,
  videoId: number,
  mode: CodingRun['mode'],
  { reactionSeconds = 0.5, patienceSeconds = 2 } = {},
): Promise<CodingRun> {
  const { server, schedule, from, to } = scene;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  try {
    await signInThroughPage(page, server.url, 'lead', SCENE_PASSWORD);
    await page.goto(`${server.url}/#/video/${videoId}/${from}`);
    await page.getByTestId('op-buttons').waitFor();
    await page.waitForFunction((at) => {
      const video = document.querySelector('video');
      return !!video && video.readyState >= 2 && Math.abs(video.currentTime - at) < 0.5;
    }, from);
    // The key of each operation, as its button shows it.
    const keyOf: Record<string, string> = {};
    for (const [scene, name] of Object.entries(SCENE_OPERATION_NAMES)) {
      keyOf[scene] = (await page.getByTestId('op-buttons').getByRole('button', { name }).locator('kbd').textContent())!.trim();
    }
    keyOf.idle = 'Enter';
    const nameOf = (operation: SceneOperation) => (operation === 'idle' ? null : SCENE_OPERATION_NAMES[operation]);

    let setupClicks = 0;
    if (mode === 'suggestions') {
      await page.getByLabel('Модель для подсказки').selectOption(String(scene.modelId));
      setupClicks++;
      await page.getByTestId('suggestion').waitFor();
      await page.getByLabel(/Размечать по подсказкам/).check();
      setupClicks++;
      // Keys go to the screen, not to the switch.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    }

    const log: CodingRun['log'] = [];
    const press = async (key: string, second: number) => {
      log.push({ second, key });
      await page.keyboard.press(key);
    };
    await press('Space', from);
    const truth = (second: number) => sceneOperationAt(schedule, second);
    // By keys: the changes to react to, the first segment's start included.
    const changes = schedule
      .filter((s) => s.endSecond > from && s.startSecond < to)
      .map((s) => ({ at: Math.max(from, s.startSecond), operation: s.operation }));
    let nextChange = 0;
    let wrongSince: number | null = null;
    const trace: string[] = [];
    let lastSeen = '';
    for (;;) {
      const seen = await look(page);
      const shown = `${seen.suggestion ?? '—'} / ${seen.coding ?? '—'}`;
      if (shown !== lastSeen) trace.push(`${seen.second.toFixed(1)} ${(lastSeen = shown)}`);
      if (seen.ended || seen.second >= to - 0.05) break;
      const t = seen.second;
      if (mode === 'keys') {
        while (nextChange < changes.length && t >= changes[nextChange]!.at + reactionSeconds) {
          const { operation } = changes[nextChange++]!;
          // Idle at the very start: nothing is being coded yet, nothing to press.
          if (operation === 'idle' && seen.coding === null) continue;
          await press(keyOf[operation]!, t);
        }
      } else {
        const expected = nameOf(truth(t - reactionSeconds));
        if (seen.coding === expected) wrongSince = null;
        else if (wrongSince === null) wrongSince = t;
        else if (t - wrongSince >= patienceSeconds) {
          await press(keyOf[truth(t - reactionSeconds)]!, t);
          wrongSince = null;
        }
      }
      await Bun.sleep(40);
    }
    const last = await look(page);
    if (last.coding !== null) await press('Enter', last.second);
    await press('Control+s', last.second);

    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    let rows: { operation_id: number; start_time: number; end_time: number; operation_name?: string }[] = [];
    const deadline = performance.now() + STATE_WAIT_MS;
    while (rows.length === 0 && performance.now() < deadline) {
      const reply = (await (await fetch(`${server.url}/api/v1/video_markups/${videoId}`, { headers: { cookie } })).json()) as { video_markups: typeof rows };
      rows = reply.video_markups;
      if (rows.length === 0) await Bun.sleep(250);
    }
    if (rows.length === 0) throw new Error(`${mode}: nothing was saved`);
    const operations = (await (await fetch(`${server.url}/api/v1/available_operations?video_id=${videoId}`, { headers: { cookie } })).json()) as {
      operations: { id: number; name: string }[];
    };
    const name = new Map(operations.operations.map((o) => [o.id, o.name]));
    let agree = 0;
    let steps = 0;
    for (let t = from + 0.05; t < to; t += 0.1) {
      const coded = rows.find((r) => r.start_time <= t && t < r.end_time);
      if ((coded ? name.get(coded.operation_id) : null) === nameOf(truth(t))) agree++;
      steps++;
    }
    return {
      mode,
      keys: log.length,
      setupClicks,
      agreement: agree / steps,
      segments: rows.filter((r) => r.end_time > from).length,
      truthSegments: schedule.filter((s) => s.operation !== 'idle' && s.endSecond > from).length,
      log,
      trace,
    };
  } finally {
    await context.close();
  }
}
