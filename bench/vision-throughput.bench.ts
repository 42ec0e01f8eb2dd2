/**
 * Vision at a plant's scale (issue 43): × real time of applying a model to 60 s of 720p25 and 1080p25
 * — without and with poses — beside a bare full decode of the same file in the same run
 * (`ffmpeg -i file -f null -`, every frame, default threads). The files are the vision scene
 * (workers/test-support/vision-scene.ts) scaled up with sensor noise at full size and encoded as
 * ingest encodes (x264 veryfast, CRF 23, a keyframe every 2 s). Rounds alternate bare, apply,
 * apply with poses (one decode feeds the pixel and the pose samplings) and, for comparison in the
 * same run, the same features and probabilities the way they were computed before: two decodes; wall time is what a user waits, processor time (this process and its ffmpeg
 * children, /proc/self/stat) is what a full machine pays per second of video — the figure the
 * extrapolation to many cameras and cores uses. Also two applies at once against one. And the
 * sampler's ffmpeg alone (the very arguments applying runs, frames.ts `samplingArguments`, output
 * thrown away): exact as applying runs it, and without the deblocking filter (`-skip_loop_filter
 * all`) — the one decoder shortcut that saves processor time, measured here but not used, since it
 * changes the frames (docs/performance.md «Пропускная способность зрения»).
 *   node_modules/.bin/bun bench/vision-throughput.bench.ts     → bench/results/vision-throughput.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectContainer } from '../workers/src/media/container';
import { mediaTools } from '../workers/src/media/ffmpeg';
import { decodeFrames, samplingArguments, workSize } from '../workers/src/vision/frames';
import { moveNetPeople } from '../workers/src/vision/movenet';
import { movenetInputSize } from '../workers/src/vision/movenet-decode';
import { loadClassifier } from '../workers/src/vision/onnx-runtime';
import { DEFAULT_POSE_SAMPLING, POSE_FEATURES_PER_AREA, poseFeatures, poseSampleOf } from '../workers/src/vision/pose-features';
import { applyOperationModel, extractSpanFeatures, trainOperationModel, type VisionSpec } from '../workers/src/vision/pipeline';
import { makeSceneClip, SCENE_AREAS, sceneSchedule } from '../workers/test-support/vision-scene';
import { measured } from './support/process-time';

const SECONDS = 60;
const TRAIN_SECONDS = 30;
const ROUNDS = 2;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];
/** 20 cameras × 8 hours a day, seconds of video. */
const PLANT_SECONDS = 20 * 8 * 3600;
const BIG_MACHINE_CORES = 16;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function ffmpegRun(args: string[]): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const child = Bun.spawn([ffmpeg, '-hide_banner', '-loglevel', 'error', '-nostdin', ...args], { stdout: 'ignore', stderr: 'pipe' });
  const stderr = await new Response(child.stderr).text();
  if ((await child.exited) !== 0) throw new Error(`ffmpeg: ${stderr}`);
}

/** ffmpeg with exactly these arguments (they carry their own -hide_banner, -loglevel), its output thrown away. */
async function ffmpegExactly(args: string[]): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const child = Bun.spawn([ffmpeg, ...args], { stdout: 'ignore', stderr: 'pipe' });
  const stderr = await new Response(child.stderr).text();
  if ((await child.exited) !== 0) throw new Error(`ffmpeg: ${stderr}`);
}

const work = mkdtempSync(join(tmpdir(), 'norma-vision-throughput-'));
const schedule = sceneSchedule(SECONDS);
const scene = join(work, 'scene.mp4');
await makeSceneClip(scene, schedule, { fps: 25 });
const classes = [
  { operationId: null, name: 'фон' },
  { operationId: 1, name: 'A' },
  { operationId: 2, name: 'B' },
  { operationId: 3, name: 'C' },
];
const index = { A: 1, B: 2, C: 3 } as const;
const spans = schedule
  .filter((s) => s.operation !== 'idle' && s.startSecond < TRAIN_SECONDS)
  .map((s) => ({ classIndex: index[s.operation as 'A' | 'B' | 'C'], startSecond: s.startSecond, endSecond: Math.min(TRAIN_SECONDS, s.endSecond) }));
const load = { start: loadavg().map((v) => round(v, 1)) };

const cases = [];
for (const size of SIZES) {
  const file = join(work, `scene-${size.height}p.mp4`);
  const encode = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-force_key_frames', 'expr:gte(t,n_forced*2)'];
  await ffmpegRun(['-y', '-i', scene, '-vf', `scale=${size.width}:${size.height},noise=alls=3:allf=t`, ...encode, '-movflags', '+faststart', file]);
  const k = size.width / 640;
  const scaled = (r: { x1: number; y1: number; x2: number; y2: number }) => ({ x1: r.x1 * k, y1: r.y1 * k, x2: r.x2 * k, y2: r.y2 * k });
  const areas = [
    { id: 1, name: 'левая', rect: scaled(SCENE_AREAS.left) },
    { id: 2, name: 'правая', rect: scaled(SCENE_AREAS.right) },
  ];
  const video = { file, ...size };
  const train = (pose?: typeof DEFAULT_POSE_SAMPLING) =>
    trainOperationModel({ video, startSecond: 0, endSecond: TRAIN_SECONDS, areas, classes, spans, ...(pose ? { pose } : {}) });
  const plain = await train();
  const posed = await train(DEFAULT_POSE_SAMPLING);
  const apply = (model: { onnx: Uint8Array; spec: VisionSpec }) =>
    applyOperationModel({ video, startSecond: 0, endSecond: SECONDS, onnx: model.onnx, spec: model.spec });

  // Before issue 43's single decode: the pixel features from one decode, the pose features from a second, RGB one.
  const twoPass = async (model: { onnx: Uint8Array; spec: VisionSpec }) => {
    const { spec } = model;
    const pose = spec.pose!;
    const session = await loadClassifier(model.onnx, { inputs: spec.featureNames.length, classes: spec.classes.length });
    const pixels = await extractSpanFeatures({ video, startSecond: 0, endSecond: SECONDS }, { ...spec, pose: undefined });
    const input = movenetInputSize(video.width, video.height, pose.inputWidth);
    const perArea = spec.areas.length * POSE_FEATURES_PER_AREA;
    const samples: Float32Array[] = [];
    await decodeFrames(file, { startSecond: 0, endSecond: SECONDS, fps: pose.fps, ...input, pixelFormat: 'rgb24', source: video }, async (frame) => {
      const out = new Float32Array(perArea);
      poseFeatures(
        await moveNetPeople(frame, input, video, pose.columns),
        spec.areas.map((a) => a.rect),
        out,
      );
      samples.push(out);
    });
    const columns = pixels.columns + perArea;
    const data = new Float32Array(pixels.rows * columns);
    for (let r = 0; r < pixels.rows; r++) {
      data.set(pixels.data.subarray(r * pixels.columns, (r + 1) * pixels.columns), r * columns);
      data.set(samples[poseSampleOf(r, spec.fps, pose.fps, samples.length)]!, r * columns + pixels.columns);
    }
    const probabilities = await session.run({ rows: pixels.rows, columns, data });
    await session.release();
    return probabilities;
  };

  // The sampler's own ffmpeg command for the plain model's frames, and the same with the decoder's loop filter skipped.
  const sampler = samplingArguments(file, await detectContainer(file), {
    startSecond: 0,
    endSecond: SECONDS,
    fps: plain.spec.fps,
    ...workSize(size.width, size.height),
  });
  const seek = sampler.indexOf('-ss');
  const noDeblock = [...sampler.slice(0, seek), '-skip_loop_filter', 'all', ...sampler.slice(seek)];
  const runs = {
    sample: [] as { ms: number; cpu: number }[],
    sampleNoDeblock: [] as { ms: number; cpu: number }[],
    bare: [] as { ms: number; cpu: number }[],
    apply: [] as { ms: number; cpu: number }[],
    pose: [] as { ms: number; cpu: number }[],
    twoPass: [] as { ms: number; cpu: number }[],
  };
  let segments = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const bare = await measured(() => ffmpegRun(['-i', file, '-f', 'null', '-']));
    const applied = await measured(() => apply(plain));
    const withPoses = await measured(() => apply(posed));
    const twoDecodes = await measured(() => twoPass(posed));
    runs.sample.push(await measured(() => ffmpegExactly(sampler)));
    runs.sampleNoDeblock.push(await measured(() => ffmpegExactly(noDeblock)));
    // The same probabilities from one decode as from two (frames.test.ts, pipeline-poses.test.ts).
    if (Array.from(twoDecodes.value).some((p, i) => p !== withPoses.value.probabilities[i])) throw new Error('one decode and two decodes disagree');
    runs.bare.push(bare);
    runs.apply.push(applied);
    runs.pose.push(withPoses);
    runs.twoPass.push(twoDecodes);
    segments = applied.value.segments.length;
  }
  // Two applies at once (two job slots) against one, right after each other.
  const one = await measured(() => apply(plain));
  const two = await measured(() => Promise.all([apply(plain), apply(plain)]));

  const best = (list: { ms: number }[]) => Math.min(...list.map((x) => x.ms));
  const cpuOf = (list: { cpu: number }[]) => median(list.map((x) => x.cpu));
  const realtime = (ms: number) => round(SECONDS / (ms / 1000), 1);
  const perSecond = {
    bare: cpuOf(runs.bare) / SECONDS,
    apply: cpuOf(runs.apply) / SECONDS,
    pose: cpuOf(runs.pose) / SECONDS,
    twoPass: cpuOf(runs.twoPass) / SECONDS,
    sample: cpuOf(runs.sample) / SECONDS,
    sampleNoDeblock: cpuOf(runs.sampleNoDeblock) / SECONDS,
  };
  const plantHours = (cpuPerSecond: number, cores: number) => round((PLANT_SECONDS * cpuPerSecond) / cores / 3600, 1);
  cases.push({
    case: `${size.width}x${size.height}`,
    video: {
      seconds: SECONDS,
      fps: 25,
      codec: 'h264 (x264 veryfast, CRF 23, keyframe every 2 s)',
      work_size: `${plain.spec.work.width}x${plain.spec.work.height}`,
    },
    segments,
    // Wall time: the best round of each (the machine is shared), medians beside.
    bare_ms: round(best(runs.bare), 0),
    apply_ms: round(best(runs.apply), 0),
    apply_pose_ms: round(best(runs.pose), 0),
    bare_realtime_factor: realtime(best(runs.bare)),
    apply_realtime_factor: realtime(best(runs.apply)),
    apply_pose_realtime_factor: realtime(best(runs.pose)),
    apply_pose_two_decodes_ms: round(best(runs.twoPass), 0),
    apply_pose_two_decodes_realtime_factor: realtime(best(runs.twoPass)),
    apply_to_bare_ratio: round(best(runs.apply) / best(runs.bare), 3),
    apply_to_bare_ratio_median: round(median(runs.apply.map((x) => x.ms)) / median(runs.bare.map((x) => x.ms)), 3),
    apply_pose_to_bare_ratio: round(best(runs.pose) / best(runs.bare), 3),
    // Processor seconds per second of video (medians of the rounds): what many jobs at once pay.
    cpu_per_video_second: {
      bare: round(perSecond.bare, 3),
      apply: round(perSecond.apply, 3),
      apply_pose: round(perSecond.pose, 3),
      apply_pose_two_decodes: round(perSecond.twoPass, 3),
      sampler_ffmpeg: round(perSecond.sample, 3),
      sampler_ffmpeg_no_deblock: round(perSecond.sampleNoDeblock, 3),
    },
    apply_to_bare_cpu_ratio: round(perSecond.apply / perSecond.bare, 3),
    apply_pose_to_bare_cpu_ratio: round(perSecond.pose / perSecond.bare, 3),
    // What of applying is the sampler's ffmpeg, and what skipping the loop filter would save (not used: it changes the frames).
    sampler_to_bare_cpu_ratio: round(perSecond.sample / perSecond.bare, 3),
    sampler_no_deblock_to_bare_cpu_ratio: round(perSecond.sampleNoDeblock / perSecond.bare, 3),
    // One decode against the two it replaced, processor time, same run.
    apply_pose_one_to_two_decodes_cpu_ratio: round(perSecond.pose / perSecond.twoPass, 3),
    two_at_once: { one_ms: round(one.ms, 0), two_ms: round(two.ms, 0), throughput_gain: round((2 * one.ms) / two.ms, 2) },
    // 20 cameras × 8 h: processor time spread over every core, the server's own work aside.
    extrapolated_plant_hours: {
      this_machine: { cores: cpus().length, apply: plantHours(perSecond.apply, cpus().length), apply_pose: plantHours(perSecond.pose, cpus().length) },
      big_machine: {
        cores: BIG_MACHINE_CORES,
        apply: plantHours(perSecond.apply, BIG_MACHINE_CORES),
        apply_pose: plantHours(perSecond.pose, BIG_MACHINE_CORES),
      },
    },
    runs: {
      bare_ms: runs.bare.map((x) => round(x.ms, 0)),
      apply_ms: runs.apply.map((x) => round(x.ms, 0)),
      apply_pose_ms: runs.pose.map((x) => round(x.ms, 0)),
      apply_pose_two_decodes_ms: runs.twoPass.map((x) => round(x.ms, 0)),
      cpu_s: {
        bare: runs.bare.map((x) => round(x.cpu)),
        apply: runs.apply.map((x) => round(x.cpu)),
        apply_pose: runs.pose.map((x) => round(x.cpu)),
        apply_pose_two_decodes: runs.twoPass.map((x) => round(x.cpu)),
        sampler_ffmpeg: runs.sample.map((x) => round(x.cpu)),
        sampler_ffmpeg_no_deblock: runs.sampleNoDeblock.map((x) => round(x.cpu)),
      },
    },
  });
  rmSync(file, { force: true });
}

const result = {
  name: 'vision-throughput',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  load_average: { ...load, end: loadavg().map((v) => round(v, 1)) },
  pose_sampling: DEFAULT_POSE_SAMPLING,
  cases,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'vision-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
