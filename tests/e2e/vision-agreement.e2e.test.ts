import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { applyOperationModel, decodeFrames, extractSpanFeatures, trainOperationModel, type VisionSpec } from '@norma/workers/vision';
import { uncertainSteps } from '../../workers/src/vision/classifier';
import { makeSceneClip, SCENE_AREAS, sceneSchedule, sceneTraining, type SceneOperation, type SceneSegment } from '../../workers/test-support/vision-scene';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayWorkFrame } from '../../pwa/src/ml/gray';
import { smoothedStep, SuggestionFollower } from '../../pwa/src/ml/suggestion-follower';
import { launchBrowser, watchErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/**
 * The browser runs a model exactly as the server does (docs/vision.md «Экраны и вывод в браузере»):
 * the same frames of the synthetic scene (decoded here with ffmpeg, as the applying job decodes
 * them) go to the PWA's built inference worker in Chromium and through the server's path in Bun
 * (workers/src/vision: features, onnxruntime-web); class probabilities agree to 1e-4. On work the
 * model never saw, the live suggestion is «не уверена» where the applying job is (issue 43).
 */
const SECONDS = 16;
const dist = resolve(import.meta.dirname, '..', '..', 'pwa', 'dist');
let dir: string;
let clip: string;
let spec: VisionSpec;
let onnx: Uint8Array;
let server: RunningServer;
let browser: Browser;
let page: Page;
let workerUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'norma-vision-agreement-'));
  clip = join(dir, 'scene.mp4');
  const schedule = sceneSchedule(SECONDS);
  await makeSceneClip(clip, schedule, { fps: 10 });
  const trained = await trainOperationModel({
    video: { file: clip, width: 640, height: 360 },
    startSecond: 0,
    endSecond: SECONDS,
    ...sceneTraining(schedule, SECONDS),
    train: { maxEpochs: 60 },
  });
  spec = trained.spec;
  onnx = trained.onnx;
  const worker = readdirSync(join(dist, 'assets')).find((f) => /^inference\.worker-.*\.js$/.test(f));
  if (!worker) throw new Error('pwa/dist has no inference worker: build the PWA');
  workerUrl = `/assets/${worker}`;
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  page = await browser.newPage();
  await page.goto(server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** Sends requests to the built worker in the page (served from our origin, under our CSP) and returns the replies. */
async function inPage(
  model: Uint8Array,
  requests: { type: 'frames'; frames: string[] } | { type: 'live'; frames: string[]; width: number; height: number; fps: number; from?: number },
  on: Page = page,
) {
  return on.evaluate(
    async ({ url, model, requests }) => {
      const decode = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer;
      const worker = new Worker(url, { type: 'module' });
      let next = 0;
      const call = (message: Record<string, unknown>, transfer: Transferable[] = []) =>
        new Promise<Record<string, unknown>>((done, fail) => {
          const id = next++;
          worker.onmessage = (event) => (event.data.type === 'error' ? fail(new Error(event.data.message)) : done(event.data));
          worker.onerror = (event) => fail(new Error(event.message));
          worker.postMessage({ ...message, id }, transfer);
        });
      try {
        const loaded = await call({ type: 'load', model: decode(model) });
        if (requests.type === 'frames') {
          const frames = requests.frames.map(decode);
          const reply = await call({ type: 'frames', frames }, frames);
          return { backend: loaded.backend as string, rows: reply.rows as number, data: [...(reply.data as Float32Array)], live: [] };
        }
        const live: { second: number; probabilities: number[] | null; uncertain: boolean }[] = [];
        for (let i = 0; i < requests.frames.length; i++) {
          const reply = await call({
            type: 'live',
            rgba: decode(requests.frames[i]!),
            width: requests.width,
            height: requests.height,
            second: (requests.from ?? 0) + i / requests.fps,
          });
          live.push({
            second: reply.second as number,
            probabilities: reply.probabilities ? [...(reply.probabilities as Float32Array)] : null,
            uncertain: reply.uncertain as boolean,
          });
        }
        return { backend: loaded.backend as string, rows: 0, data: [], live };
      } finally {
        worker.terminate();
      }
    },
    { url: workerUrl, model: base64(model), requests },
  );
}

describe('browser and server inference agree', () => {
  /** The same frames through the built worker in `on` and through the server's path: the worst difference of a class probability. */
  async function compareFrames(on: Page, backend: 'wasm' | 'webgpu') {
    const errors = watchErrors(on);
    const frames: Uint8Array[] = [];
    await decodeFrames(clip, { startSecond: 0, endSecond: SECONDS, fps: spec.fps, width: spec.work.width, height: spec.work.height }, (f) => {
      frames.push(f.slice());
    });
    // The server's own path: ffmpeg, features, onnxruntime-web in Bun.
    const server = await applyOperationModel({ video: { file: clip, width: 640, height: 360 }, startSecond: 0, endSecond: SECONDS, onnx, spec });
    const browserRun = await inPage(onnx, { type: 'frames', frames: frames.map(base64) }, on);
    expect(browserRun.backend).toBe(backend);
    expect(browserRun.rows).toBe(server.steps);
    expect(browserRun.data).toHaveLength(server.probabilities.length);
    let worst = 0;
    for (let i = 0; i < server.probabilities.length; i++) worst = Math.max(worst, Math.abs(browserRun.data[i]! - server.probabilities[i]!));
    expect(worst).toBeLessThan(1e-4);
    // Not a trivial model: it tells the operations apart.
    const classes = spec.classes.length;
    const predicted = new Set(
      Array.from({ length: server.steps }, (_, r) => browserRun.data.slice(r * classes, (r + 1) * classes).reduce((b, v, i, a) => (v > a[b]! ? i : b), 0)),
    );
    expect(predicted.size).toBeGreaterThan(2);
    expect(errors).toEqual([]);
  }

  it('gives the same class probabilities for the same frames (wasm backend in headless Chromium)', () => compareFrames(page, 'wasm'), 120_000);

  it('gives the same class probabilities on the WebGPU backend when the browser has an adapter (Chromium’s software one here)', async () => {
    const gpuBrowser = await launchBrowser({ softwareWebGpu: true });
    try {
      const gpuPage = await gpuBrowser.newPage();
      await gpuPage.goto(server.url);
      await compareFrames(gpuPage, 'webgpu');
    } finally {
      await gpuBrowser.close();
    }
  });

  it('live playback: full-size frames scaled in the browser give the server features and the same suggestions', async () => {
    const span = 6;
    const gray: Uint8Array[] = [];
    const rgba: Uint8Array[] = [];
    const sampling = { startSecond: 0, endSecond: span, fps: spec.fps };
    await decodeFrames(clip, { ...sampling, width: spec.work.width, height: spec.work.height }, (f) => {
      gray.push(f.slice());
    });
    // The full-size picture as a browser canvas holds it: gray RGB (R = G = B), so the luma is the
    // gray level exactly and what is checked is the area scaling and the live window.
    await decodeFrames(clip, { ...sampling, width: 640, height: 360 }, (f) => {
      const out = new Uint8Array(640 * 360 * 4);
      for (let i = 0, j = 0; i < f.length; i++, j += 4) {
        out[j] = out[j + 1] = out[j + 2] = f[i]!;
        out[j + 3] = 255;
      }
      rgba.push(out);
    });
    expect(rgba).toHaveLength(gray.length);
    // Area scaling as ffmpeg's flags=area, up to rounding.
    let far = 0;
    let sum = 0;
    for (let f = 0; f < gray.length; f++) {
      const mine = grayWorkFrame(rgba[f]!, 640, 360, spec.work.width, spec.work.height);
      for (let i = 0; i < mine.length; i++) {
        const d = Math.abs(mine[i]! - gray[f]![i]!);
        sum += d;
        if (d > 1) far++;
      }
    }
    expect(sum / (gray.length * gray[0]!.length)).toBeLessThan(0.3);
    expect(far).toBe(0);

    const server = await applyOperationModel({ video: { file: clip, width: 640, height: 360 }, startSecond: 0, endSecond: span, onnx, spec });
    const run = await inPage(onnx, { type: 'live', frames: rgba.map(base64), width: 640, height: 360, fps: spec.fps });
    const classes = spec.classes.length;
    const answered = run.live.filter((l) => l.probabilities);
    expect(answered.length).toBeGreaterThan(gray.length / 2);
    let agree = 0;
    let difference = 0;
    let worst = 0;
    for (const { second, probabilities } of answered) {
      const step = Math.round(second * spec.fps);
      const expected = Array.from(server.probabilities.slice(step * classes, (step + 1) * classes));
      const argmax = (a: number[]) => a.reduce((b, v, i) => (v > a[b]! ? i : b), 0);
      if (argmax(expected) === argmax(probabilities!)) agree++;
      for (let c = 0; c < classes; c++) {
        const d = Math.abs(probabilities![c]! - expected[c]!);
        difference += d;
        worst = Math.max(worst, d);
      }
    }
    // Features differ by rounding (≤ 1 gray level); how much that moves a probability depends on how
    // steep the trained model is (issue 25 trains on interleaved blocks, a steeper model here). Pixel
    // features of version 3 are in units of the frame's own spread (issue 43), so a level of rounding
    // moves them a little more than it moved /255 features. Since the job's classifier is a softmax
    // regression (docs/vision.md «Случайное начало»), it trains on to a sharper boundary than the
    // early-stopped perceptron did, so a step on the boundary swings more: measured worst 0.114 on
    // one of 23 steps (under 0.1 before), mean 0.007, every answer the same. The worst single probability
    // may differ by up to 0.15 while the mean stays under 0.01 and the answers agree.
    expect(difference / (answered.length * classes)).toBeLessThan(0.01);
    expect(worst).toBeLessThan(0.15);
    expect(agree / answered.length).toBeGreaterThan(0.9);
  });
});

describe('«не уверена» live as in the applying job (issue 43)', () => {
  /**
   * The scene of api/src/vision/model-honesty.test.ts, shorter: A (5 s), pause (4 s), B (5 s), pause
   * (4 s) three times, then 15 s of C (a blue box in the right area) the model never saw, then the
   * cycle again. Trained on the first 54 s (A, B and pauses).
   */
  const CYCLE: [SceneOperation, number, number][] = [
    ['A', 0, 5],
    ['idle', 5, 9],
    ['B', 9, 14],
    ['idle', 14, 18],
  ];
  const cycles = (from: number, count: number): SceneSegment[] =>
    Array.from({ length: count }, (_, i) => from + 18 * i).flatMap((at) =>
      CYCLE.map(([operation, start, end]) => ({ operation, startSecond: at + start, endSecond: at + end })),
    );
  const TRAINED = 54;
  const C_END = TRAINED + 15;
  const schedule: SceneSegment[] = [...cycles(0, 3), { operation: 'C', startSecond: TRAINED, endSecond: C_END }, ...cycles(C_END, 1)];
  /** The span played: the last pause before C, all of C and the A after it. */
  const FROM = 48;
  const TO = 76;
  let unseenClip: string;
  let unseenSpec: VisionSpec;
  let unseenOnnx: Uint8Array;

  beforeAll(async () => {
    unseenClip = join(dir, 'unseen.mp4');
    await makeSceneClip(unseenClip, schedule, { fps: 10 });
    const trained = await trainOperationModel({
      video: { file: unseenClip, width: 640, height: 360 },
      startSecond: 0,
      endSecond: TRAINED,
      areas: [
        { id: 1, name: 'Левая', rect: SCENE_AREAS.left },
        { id: 2, name: 'Правая', rect: SCENE_AREAS.right },
      ],
      classes: [
        { operationId: null, name: 'Фон (прочее)' },
        { operationId: 1, name: 'A' },
        { operationId: 2, name: 'B' },
      ],
      spans: schedule
        .filter((s) => s.endSecond <= TRAINED && (s.operation === 'A' || s.operation === 'B'))
        .map((s) => ({ classIndex: s.operation === 'A' ? 1 : 2, startSecond: s.startSecond, endSecond: s.endSecond })),
      train: { maxEpochs: 60 },
    });
    unseenSpec = trained.spec;
    unseenOnnx = trained.onnx;
  });

  it('the browser marks the same steps «не уверена» as the job, and its live suggestion shows «не уверена» where the job writes it', async () => {
    expect(unseenSpec.novelty).toBeDefined();
    const video = { file: unseenClip, width: 640, height: 360 };
    const job = await applyOperationModel({ video, startSecond: FROM, endSecond: TO, onnx: unseenOnnx, spec: unseenSpec });
    const classes = unseenSpec.classes.length;
    // The job's own per-step flag: the same features and probabilities through the job's test.
    const features = await extractSpanFeatures({ video, startSecond: FROM, endSecond: TO }, unseenSpec);
    expect(features.rows).toBe(job.steps);
    const jobUncertain = uncertainSteps(unseenSpec.novelty, features, job.probabilities, classes);
    const stepOf = (second: number) => Math.round((second - FROM) * unseenSpec.fps);
    const inC = (second: number) => second >= TRAINED && second < C_END;
    // The job says «не уверена» over most of C (what model-honesty.test.ts checks through the API) and not over known work.
    const cSteps = [...jobUncertain.keys()].filter((r) => inC(FROM + r / unseenSpec.fps));
    expect(cSteps.filter((r) => jobUncertain[r]).length).toBeGreaterThan(cSteps.length * 0.7);
    const jobSpanSeconds = job.uncertain.reduce((sum, u) => sum + Math.min(u.endSecond, C_END) - Math.max(u.startSecond, TRAINED), 0);
    expect(jobSpanSeconds).toBeGreaterThan(0.7 * (C_END - TRAINED));

    // Live playback of the span in the browser: the gray working frames as a canvas at that size
    // holds them (the scaling is checked above), one per step, with their video seconds.
    const rgba: string[] = [];
    await decodeFrames(
      unseenClip,
      { startSecond: FROM, endSecond: TO, fps: unseenSpec.fps, width: unseenSpec.work.width, height: unseenSpec.work.height },
      (f) => {
        const out = new Uint8Array(f.length * 4);
        for (let i = 0, j = 0; i < f.length; i++, j += 4) {
          out[j] = out[j + 1] = out[j + 2] = f[i]!;
          out[j + 3] = 255;
        }
        rgba.push(base64(out));
      },
    );
    const run = await inPage(unseenOnnx, {
      type: 'live',
      frames: rgba,
      width: unseenSpec.work.width,
      height: unseenSpec.work.height,
      fps: unseenSpec.fps,
      from: FROM,
    });
    const answered = run.live.filter((l) => l.probabilities);
    expect(answered.length).toBeGreaterThan(job.steps * 0.8);

    // Step by step: the browser's «не уверена» flag against the job's.
    let same = 0;
    let browserUncertain = 0;
    for (const l of answered) {
      const step = stepOf(l.second);
      if (l.uncertain === (jobUncertain[step] === 1)) same++;
      if (l.uncertain) browserUncertain++;
    }
    expect(same / answered.length).toBeGreaterThanOrEqual(0.9);
    expect(browserUncertain).toBeGreaterThan(cSteps.length * 0.7);

    // What the live suggestion shows (the follower of useLiveSuggestion.ts over the same replies):
    // «не уверена» exactly where the job's result has its «не уверена» spans, never A or B over C.
    const follower = new SuggestionFollower({
      minSteps: Math.max(1, Math.round(unseenSpec.smoothing.minSegmentSeconds * unseenSpec.fps)),
      hysteresis: unseenSpec.smoothing.hysteresis,
      stepSeconds: 1 / unseenSpec.fps,
    });
    const inJobSpan = (second: number) => job.uncertain.some((u) => second >= u.startSecond - 1e-6 && second < u.endSecond - 1e-6);
    let shown = 0;
    let shownSame = 0;
    let shownUncertain = 0;
    let operationOverC = 0;
    for (const l of answered) {
      follower.push(l.second, smoothedStep(Float32Array.from(l.probabilities!), l.uncertain));
      const decided = follower.decided;
      if (!decided) continue;
      shown++;
      const uncertain = decided.classIndex === classes;
      if (uncertain === inJobSpan(decided.second)) shownSame++;
      if (uncertain) shownUncertain++;
      if (inC(decided.second) && !uncertain && decided.classIndex > 0) operationOverC++;
    }
    expect(shown).toBeGreaterThan(answered.length * 0.8);
    expect(shownSame / shown).toBeGreaterThanOrEqual(0.9);
    expect(shownUncertain).toBeGreaterThan(0.7 * (C_END - TRAINED) * unseenSpec.fps);
    expect(operationOverC).toBeLessThan(0.3 * (C_END - TRAINED) * unseenSpec.fps);
  });
});
