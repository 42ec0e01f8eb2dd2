/**
 * Tracking speed (issue 44, docs/event-analytics.md «Задача трекинга»): the tracking job's own work on
 * a stretch of vtest.avi (768×576, 10 fps, people walking) — the decode at the sampling rate and
 * MoveNet's input size in runs of a few seconds (decodeChunked, as the job calls it), MoveNet
 * multipose on every sampled frame on the server's MoveNet threads (detectFrame, as the job runs on
 * the server), each person's appearance from the decoded frame, the ByteTracker and the offline step
 * after it (finishTracks; its own processor time reported apart) — at the job's
 * default sampling rate, beside a bare decode of the same stretch with the same sampling in the same
 * run (frames thrown away). Rounds alternate bare and tracking; the
 * figures are the medians. Wall time gives × real time (what one video waits); processor time (this
 * process with its MoveNet threads and its ended ffmpeg children, /proc/self/stat) per second of
 * video is what each camera costs a full machine: cores ÷ that = cameras one machine tracks in real
 * time, the server's own work aside. The budget holds the processor seconds per video second.
 * Where the time goes is reported per sampled frame (decode, MoveNet, appearance, tracker), and
 * EVENT_TRACKING_WIDTHS=768,704 measures other MoveNet input widths beside the job's in the same run.
 *   node_modules/.bin/bun bench/event-tracking.bench.ts     → bench/results/event-tracking.json
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { TRACKING_FPS } from '../api/src/events/schema';
import { TRACKING_INPUT_WIDTH } from '../api/src/events/service';
import { decodeChunked } from '../api/src/events/tracking.job';
import { startMoveNetThreads } from '../api/src/threads/movenet-threads';
import { probe } from '../workers/src/media/ffmpeg';
import { appearanceOf, ByteTracker, finishTracks, scaleBox, TRACKER_DEFAULTS } from '../workers/src/tracking';
import { movenetInputSize } from '../workers/src/vision/movenet-decode';
import { VTEST_AVI } from '../tests/support/vtest';
import { measured } from './support/process-time';

/** Seconds of vtest.avi tracked, from its start (EVENT_TRACKING_SECONDS: a shorter look on a busy machine). */
const STRETCH = Number(process.env.EVENT_TRACKING_SECONDS ?? 20);
/** The job's default sampling rate (docs/event-analytics.md «Частота и размер кадра по умолчанию»). */
const FPS = TRACKING_FPS.default;
const ROUNDS = Number(process.env.EVENT_TRACKING_ROUNDS ?? 2);
/** The machine the extrapolation is for: the 2-core server of docs/performance.md. */
const SERVER_CORES = 2;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (!existsSync(VTEST_AVI)) throw new Error(`нет ${VTEST_AVI} (пакет opencv-doc): бенчмарк трекинга не на чем мерить`);
const info = await probe(VTEST_AVI);
const source = { width: info.width!, height: info.height! };
const videoFps = info.frameRate && info.frameRate > 0 ? info.frameRate : 25;
/**
 * MoveNet input widths measured in this run (the job's own first): `EVENT_TRACKING_WIDTHS=768,704`
 * compares a smaller input beside the job's on the same stretch, rounds interleaved (docs/event-analytics.md «Скорость»).
 */
const WIDTHS = [...new Set([TRACKING_INPUT_WIDTH, ...(process.env.EVENT_TRACKING_WIDTHS ?? '').split(',').filter(Boolean).map(Number)])];
const samplingOf = (width: number) => {
  const input = movenetInputSize(source.width, source.height, width);
  return { input, sampling: { fps: FPS, width: input.width, height: input.height, pixelFormat: 'rgb24' as const, source: { ...source, frameRate: videoFps } } };
};
const threads = startMoveNetThreads();
const load = { start: loadavg().map((v) => round(v, 1)) };

const bare = (width: number) => decodeChunked(VTEST_AVI, samplingOf(width).sampling, STRETCH, undefined, async () => {});
interface Stages {
  /** Processor milliseconds of the offline step (finishTracks) in each tracking round. */
  offlineCpuMs: number[];
  /** Main-thread wall milliseconds per frame: waiting for MoveNet's threads, the appearance, the tracker's update. */
  detectMs: number[];
  appearanceMs: number[];
  trackerMs: number[];
}
const stages = new Map<number, Stages>(WIDTHS.map((w) => [w, { offlineCpuMs: [], detectMs: [], appearanceMs: [], trackerMs: [] }]));
async function track(width: number) {
  const { input, sampling } = samplingOf(width);
  const stage = stages.get(width)!;
  const tracker = new ByteTracker({ ...TRACKER_DEFAULTS, fps: FPS, frameSize: source });
  const spent = { detect: 0, appearance: 0, tracker: 0, frames: 0 };
  await decodeChunked(VTEST_AVI, sampling, STRETCH, undefined, async (rgb, index) => {
    const time = index / FPS;
    const t0 = performance.now();
    const people = await threads.detectFrame({ rgb, input }, source, TRACKER_DEFAULTS.lowScore);
    const t1 = performance.now();
    const picture = { rgb, width: input.width, height: input.height };
    const detections = people.map((p) => ({ box: p.box, score: p.score, feature: appearanceOf(picture, scaleBox(p.box, source, input)) ?? undefined }));
    const t2 = performance.now();
    tracker.update(Math.round(time * videoFps), time, detections);
    spent.detect += t1 - t0;
    spent.appearance += t2 - t1;
    spent.tracker += performance.now() - t2;
    spent.frames++;
  });
  stage.detectMs.push(spent.detect / spent.frames);
  stage.appearanceMs.push(spent.appearance / spent.frames);
  stage.trackerMs.push(spent.tracker / spent.frames);
  // The offline step as the job runs it after the last frame (its processor time: this thread only).
  const before = process.cpuUsage();
  const tracks = finishTracks(tracker.tracks(), TRACKER_DEFAULTS, { fps: FPS, videoFps, frame: source });
  const used = process.cpuUsage(before);
  stage.offlineCpuMs.push((used.user + used.system) / 1000);
  return tracks.length;
}

// A warm-up detection per width (model load, JIT) not counted.
for (const width of WIDTHS) {
  const { input } = samplingOf(width);
  await threads.detectFrame({ rgb: new Uint8Array(input.width * input.height * 3), input }, source);
}
const runs = new Map(WIDTHS.map((w) => [w, { bare: [] as { ms: number; cpu: number }[], track: [] as { ms: number; cpu: number }[], frames: 0, tracks: 0 }]));
for (let r = 0; r < ROUNDS; r++) {
  for (const width of WIDTHS) {
    const run = runs.get(width)!;
    const b = await measured(() => bare(width));
    run.frames = b.value;
    run.bare.push(b);
    const t = await measured(() => track(width));
    run.tracks = t.value;
    run.track.push(t);
  }
}
threads.close();

/** The figures of one input width: × real time, processor seconds per video second, and where the time went. */
function figuresOf(width: number) {
  const run = runs.get(width)!;
  const stage = stages.get(width)!;
  const wall = { bare: median(run.bare.map((x) => x.ms)) / 1000, track: median(run.track.map((x) => x.ms)) / 1000 };
  const perSecond = { bare: median(run.bare.map((x) => x.cpu)) / STRETCH, track: median(run.track.map((x) => x.cpu)) / STRETCH };
  const mainThread = (median(stage.appearanceMs) + median(stage.trackerMs)) / 1000;
  return {
    movenet_input: samplingOf(width).input,
    frames: run.frames,
    tracks: run.tracks,
    x_real_time: { bare: round(STRETCH / wall.bare, 1), tracking: round(STRETCH / wall.track, 2) },
    cpu_per_video_second: { bare: round(perSecond.bare, 3), tracking: round(perSecond.track, 3) },
    // Where the time goes, per sampled frame: the decode (bare run, processor), MoveNet on its threads
    // (the tracking's processor time less the decode, the appearance and the tracker), the appearance
    // and the tracker (main thread, wall — no other work runs on it between frames).
    stage_cpu_ms_per_frame: {
      decode: round((perSecond.bare * 1000) / FPS, 1),
      movenet: round(((perSecond.track - perSecond.bare) * 1000) / FPS - mainThread * 1000, 1),
      appearance: round(median(stage.appearanceMs), 2),
      tracker: round(median(stage.trackerMs), 2),
    },
    detect_wall_ms_per_frame: round(median(stage.detectMs), 1),
    // The offline step (tracklets joined over the whole stretch): processor seconds per video second, median.
    offline_step_cpu_per_video_second: round(median(stage.offlineCpuMs) / 1000 / STRETCH, 5),
    tracking_to_bare_cpu_ratio: round(perSecond.track / Math.max(perSecond.bare, 1e-3), 1),
    // Each camera needs cpu_per_video_second cores to keep up; the server's own work aside.
    cameras_in_real_time: { cores: SERVER_CORES, cameras: round(SERVER_CORES / perSecond.track, 1), this_machine_cores: cpus().length },
    // On the 2-core server: × real time with both cores on this camera's tracking (processor time, not this run's wall time).
    x_real_time_two_free_cores: round(SERVER_CORES / perSecond.track, 2),
    runs: {
      bare_ms: run.bare.map((x) => round(x.ms, 0)),
      tracking_ms: run.track.map((x) => round(x.ms, 0)),
      cpu_s: { bare: run.bare.map((x) => round(x.cpu)), tracking: run.track.map((x) => round(x.cpu)) },
    },
  };
}

const result = {
  name: 'event-tracking',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  load_average: { ...load, end: loadavg().map((v) => round(v, 1)) },
  video: { file: 'vtest.avi', width: source.width, height: source.height, fps: videoFps, stretch_seconds: STRETCH },
  fps_sampled: FPS,
  // The job's own input width (the budgets hold these figures).
  ...figuresOf(TRACKING_INPUT_WIDTH),
  // Every width of this run, the job's too, measured in interleaved rounds.
  by_input_width: Object.fromEntries(WIDTHS.map((w) => [w, figuresOf(w)])),
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'event-tracking.json'), `${JSON.stringify(result, null, 2)}\n`);
