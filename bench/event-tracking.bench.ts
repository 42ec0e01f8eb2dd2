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

/** Seconds of vtest.avi tracked, from its start. */
const STRETCH = 20;
/** The job's default sampling rate (docs/event-analytics.md «Частота и размер кадра по умолчанию»). */
const FPS = TRACKING_FPS.default;
const ROUNDS = 2;
/** The machine the extrapolation is for: the 2-core server of docs/performance.md. */
const SERVER_CORES = 2;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (!existsSync(VTEST_AVI)) throw new Error(`нет ${VTEST_AVI} (пакет opencv-doc): бенчмарк трекинга не на чем мерить`);
const info = await probe(VTEST_AVI);
const source = { width: info.width!, height: info.height! };
const videoFps = info.frameRate && info.frameRate > 0 ? info.frameRate : 25;
const input = movenetInputSize(source.width, source.height, TRACKING_INPUT_WIDTH);
const sampling = {
  fps: FPS,
  width: input.width,
  height: input.height,
  pixelFormat: 'rgb24' as const,
  source: { ...source, frameRate: videoFps },
};
const threads = startMoveNetThreads();
const load = { start: loadavg().map((v) => round(v, 1)) };

const bare = () => decodeChunked(VTEST_AVI, sampling, STRETCH, undefined, async () => {});
/** Processor milliseconds of the offline step (finishTracks) in each tracking round. */
const offlineCpuMs: number[] = [];
async function track() {
  const tracker = new ByteTracker({ ...TRACKER_DEFAULTS, fps: FPS, frameSize: source });
  await decodeChunked(VTEST_AVI, sampling, STRETCH, undefined, async (rgb, index) => {
    const time = index / FPS;
    const people = await threads.detectFrame({ rgb, input }, source, TRACKER_DEFAULTS.lowScore);
    const picture = { rgb, width: input.width, height: input.height };
    const detections = people.map((p) => ({ box: p.box, score: p.score, feature: appearanceOf(picture, scaleBox(p.box, source, input)) ?? undefined }));
    tracker.update(Math.round(time * videoFps), time, detections);
  });
  // The offline step as the job runs it after the last frame (its processor time: this thread only).
  const before = process.cpuUsage();
  const tracks = finishTracks(tracker.tracks(), TRACKER_DEFAULTS, { fps: FPS, videoFps, frame: source });
  const used = process.cpuUsage(before);
  offlineCpuMs.push((used.user + used.system) / 1000);
  return tracks.length;
}

// A warm-up tracking (model load, JIT) not counted.
await threads.detectFrame({ rgb: new Uint8Array(input.width * input.height * 3), input }, source);
const runs = { bare: [] as { ms: number; cpu: number }[], track: [] as { ms: number; cpu: number }[] };
let frames = 0;
let tracks = 0;
for (let r = 0; r < ROUNDS; r++) {
  const b = await measured(bare);
  frames = b.value;
  runs.bare.push(b);
  const t = await measured(track);
  tracks = t.value;
  runs.track.push(t);
}
threads.close();

const wall = { bare: median(runs.bare.map((x) => x.ms)) / 1000, track: median(runs.track.map((x) => x.ms)) / 1000 };
const perSecond = { bare: median(runs.bare.map((x) => x.cpu)) / STRETCH, track: median(runs.track.map((x) => x.cpu)) / STRETCH };
const result = {
  name: 'event-tracking',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  load_average: { ...load, end: loadavg().map((v) => round(v, 1)) },
  video: { file: 'vtest.avi', width: source.width, height: source.height, fps: videoFps, stretch_seconds: STRETCH },
  fps_sampled: FPS,
  movenet_input: input,
  frames,
  tracks,
  x_real_time: { bare: round(STRETCH / wall.bare, 1), tracking: round(STRETCH / wall.track, 2) },
  cpu_per_video_second: { bare: round(perSecond.bare, 3), tracking: round(perSecond.track, 3) },
  // The offline step (tracklets joined over the whole stretch): processor seconds per video second, median.
  offline_step_cpu_per_video_second: round(median(offlineCpuMs) / 1000 / STRETCH, 5),
  tracking_to_bare_cpu_ratio: round(perSecond.track / Math.max(perSecond.bare, 1e-3), 1),
  // Each camera needs cpu_per_video_second cores to keep up; the server's own work aside.
  cameras_in_real_time: { cores: SERVER_CORES, cameras: round(SERVER_CORES / perSecond.track, 1), this_machine_cores: cpus().length },
  runs: {
    bare_ms: runs.bare.map((x) => round(x.ms, 0)),
    tracking_ms: runs.track.map((x) => round(x.ms, 0)),
    cpu_s: { bare: runs.bare.map((x) => round(x.cpu)), tracking: runs.track.map((x) => round(x.cpu)) },
  },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'event-tracking.json'), `${JSON.stringify(result, null, 2)}\n`);
