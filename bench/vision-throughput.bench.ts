/**
 * Vision at a plant's scale (issue 43): × real time of applying a model to 60 s of 720p25 and 1080p25
 * — without and with poses — beside a bare full decode of the same file in the same run
 * (`ffmpeg -i file -f null -`, every frame, default threads). The files are the vision scene
 * (workers/test-support/vision-scene.ts) scaled up with sensor noise at full size, each encoded two
 * ways: as ingest encodes (x264 veryfast, CRF 23, a keyframe every 2 s, every fifth frame a reference
 * and the four between unreferenced — media/reference-frames.ts — so applying decodes only the frames
 * the model samples) and as a camera streams it (P frames only, as the recorder copies it: applying
 * decodes every frame). Rounds alternate bare, apply and apply with poses (one decode feeds the pixel
 * and the pose samplings); wall time is what a user waits, processor time (this process and its
 * ffmpeg children, /proc/self/stat) is what a full machine pays per second of video — the figure the
 * extrapolation to many cameras and cores uses. Also two applies at once against one, and the
 * sampler's ffmpeg alone (frames.ts `samplingArguments`, output thrown away).
 *   node_modules/.bin/bun bench/vision-throughput.bench.ts     → bench/results/vision-throughput.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectContainer } from '../workers/src/media/container';
import { mediaTools } from '../workers/src/media/ffmpeg';
import { h264Encoding } from '../workers/src/media/ingest';
import { referenceStepFor, samplesOnlyReferences } from '../workers/src/media/reference-frames';
import { samplingArguments, workSize } from '../workers/src/vision/frames';
import { DEFAULT_POSE_SAMPLING } from '../workers/src/vision/pose-features';
import { applyOperationModel, trainOperationModel, type VisionSpec } from '../workers/src/vision/pipeline';
import { makeSceneClip, sceneSchedule, sceneTraining } from '../workers/test-support/vision-scene';
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
const load = { start: loadavg().map((v) => round(v, 1)) };

/** How each file is encoded: as ingest encodes (every sampled frame a reference, media/reference-frames.ts) and as a camera streams it (P frames only, copied by the recorder). */
const ENCODINGS = [
  {
    kind: 'ingest',
    codec: 'h264 (x264 veryfast, CRF 23, keyframe every 2 s, reference step 5 as ingest)',
    encode: h264Encoding(referenceStepFor(25)),
    referenceStep: referenceStepFor(25),
  },
  {
    kind: 'camera',
    codec: 'h264 (x264 veryfast, CRF 23, keyframe every 2 s, P frames only as a camera stream)',
    encode: [...h264Encoding(null), '-bf', '0'],
    referenceStep: null,
  },
];

const cases = [];
for (const size of SIZES) {
  const training = sceneTraining(schedule, TRAIN_SECONDS, size.width / 640);
  let models: { plain: { onnx: Uint8Array; spec: VisionSpec }; posed: { onnx: Uint8Array; spec: VisionSpec } } | null = null;
  for (const encoding of ENCODINGS) {
    const file = join(work, `scene-${size.height}p-${encoding.kind}.mp4`);
    await ffmpegRun(['-y', '-i', scene, '-vf', `scale=${size.width}:${size.height},noise=alls=3:allf=t`, ...encoding.encode, '-movflags', '+faststart', file]);
    // As the jobs see a recording (api/src/vision/job-support.ts sourceFile): its rate and, for Norma's own encode, the reference step.
    const video = { file, ...size, frameRate: 25, referenceStep: encoding.referenceStep };
    // One model per picture size, trained on the ingest file and applied to both.
    const train = (pose?: typeof DEFAULT_POSE_SAMPLING) =>
      trainOperationModel({ video, startSecond: 0, endSecond: TRAIN_SECONDS, ...training, ...(pose ? { pose } : {}) });
    models ??= { plain: await train(), posed: await train(DEFAULT_POSE_SAMPLING) };
    const { plain, posed } = models;
    const apply = (model: { onnx: Uint8Array; spec: VisionSpec }) =>
      applyOperationModel({ video, startSecond: 0, endSecond: SECONDS, onnx: model.onnx, spec: model.spec });

    // The sampler's own ffmpeg command for the plain model's frames, exactly as applying runs it.
    const skipUnreferenced = samplesOnlyReferences(video, 0, plain.spec.fps);
    const sampling = { startSecond: 0, endSecond: SECONDS, fps: plain.spec.fps, ...workSize(size.width, size.height), skipUnreferenced };
    const sampler = samplingArguments(file, await detectContainer(file), sampling);
    const runs = {
      sample: [] as { ms: number; cpu: number }[],
      bare: [] as { ms: number; cpu: number }[],
      apply: [] as { ms: number; cpu: number }[],
      pose: [] as { ms: number; cpu: number }[],
    };
    let segments = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const bare = await measured(() => ffmpegRun(['-i', file, '-f', 'null', '-']));
      const applied = await measured(() => apply(plain));
      const withPoses = await measured(() => apply(posed));
      runs.sample.push(await measured(() => ffmpegExactly(sampler)));
      runs.bare.push(bare);
      runs.apply.push(applied);
      runs.pose.push(withPoses);
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
      sample: cpuOf(runs.sample) / SECONDS,
    };
    const plantHours = (cpuPerSecond: number, cores: number) => round((PLANT_SECONDS * cpuPerSecond) / cores / 3600, 1);
    cases.push({
      case: `${size.width}x${size.height} ${encoding.kind}`,
      video: {
        seconds: SECONDS,
        fps: 25,
        codec: encoding.codec,
        work_size: `${plain.spec.work.width}x${plain.spec.work.height}`,
        decodes_only_references: skipUnreferenced,
      },
      segments,
      // Wall time: the best round of each (the machine is shared), medians beside.
      bare_ms: round(best(runs.bare), 0),
      apply_ms: round(best(runs.apply), 0),
      apply_pose_ms: round(best(runs.pose), 0),
      bare_realtime_factor: realtime(best(runs.bare)),
      apply_realtime_factor: realtime(best(runs.apply)),
      apply_pose_realtime_factor: realtime(best(runs.pose)),
      apply_to_bare_ratio: round(best(runs.apply) / best(runs.bare), 3),
      apply_to_bare_ratio_median: round(median(runs.apply.map((x) => x.ms)) / median(runs.bare.map((x) => x.ms)), 3),
      apply_pose_to_bare_ratio: round(best(runs.pose) / best(runs.bare), 3),
      // Processor seconds per second of video (medians of the rounds): what many jobs at once pay.
      cpu_per_video_second: {
        bare: round(perSecond.bare, 3),
        apply: round(perSecond.apply, 3),
        apply_pose: round(perSecond.pose, 3),
        sampler_ffmpeg: round(perSecond.sample, 3),
      },
      apply_to_bare_cpu_ratio: round(perSecond.apply / perSecond.bare, 3),
      apply_pose_to_bare_cpu_ratio: round(perSecond.pose / perSecond.bare, 3),
      sampler_to_bare_cpu_ratio: round(perSecond.sample / perSecond.bare, 3),
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
        cpu_s: {
          bare: runs.bare.map((x) => round(x.cpu)),
          apply: runs.apply.map((x) => round(x.cpu)),
          apply_pose: runs.pose.map((x) => round(x.cpu)),
          sampler_ffmpeg: runs.sample.map((x) => round(x.cpu)),
        },
      },
    });
    rmSync(file, { force: true });
  }
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
