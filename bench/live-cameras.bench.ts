/**
 * Issue 45: what one live camera costs, and how many one 2-core machine records and labels live.
 * A 1080p25 stream of ~4 Mbit/s (hdFootage: the synthetic workplace scene at 1920×1080, h264 CBR,
 * made once with ffmpeg) is published into Debian's rtsp-server-perl; the recorder's own ffmpeg
 * (recordArguments: copy into 5-s MP4 segments) records it. Measured:
 *   - the recorder's ffmpeg: processor share (utime + stime of /proc/PID/stat over MEASURE_S after
 *     WARM_S) and memory (VmRSS, VmHWM);
 *   - per closed segment, processor seconds (this process and its ended children: bench/support/process-time.ts):
 *     the recorder's work (first-frame probe, SHA-256, copy into the store, and — the light path — one
 *     inspection that makes the segment ready), the old ingest job's media work on the same segment as
 *     the old recorder wrote it (index at the end: inspect, packet count, remux with faststart,
 *     inspect again), and live labels (probe + applying a model trained on the same picture);
 *   - the view check (checkPicture) once, spread over its 10 minutes.
 * From them: the share of one core per camera, before and after the light path, and how many
 * cameras fit on 2 cores keeping 20 % for the API and the database.
 *   node_modules/.bin/bun bench/live-cameras.bench.ts     → bench/results/live-cameras.json
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RTSP_MISSING, hdFootage, startRtspCamera } from '../api/test-support/rtsp-camera';
import { checkIntegrity, convertForBrowser, inspectRecording } from '../workers/src/media/ingest';
import { mediaTools, probe, run } from '../workers/src/media/ffmpeg';
import { parseSegmentList, recordArguments, SEGMENT_LIST, segmentTracks } from '../workers/src/media/rtsp-record';
import { applyOperationModel, trainOperationModel } from '../workers/src/vision/pipeline';
import { checkPicture } from '../workers/src/vision/view-check';
import { makeSceneClip, sceneSchedule, sceneTraining } from '../workers/test-support/vision-scene';
import { measured } from './support/process-time';

const SEGMENT_S = 5;
const WARM_S = 5;
const MEASURE_S = 30;
const SOURCE_S = 30;
const VIEW_CHECK_EVERY_S = 600;
/** Share of the machine kept for the API, the database and the recorder's own process. */
const RESERVE = 0.2;
const CORES = 2;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

if (RTSP_MISSING) {
  console.log(`live-cameras: пропущено — ${RTSP_MISSING}`);
  process.exit(0);
}

const cache = join(tmpdir(), 'norma-live-bench');
mkdirSync(cache, { recursive: true });
const hd = join(cache, 'hd-1080p25-4mbit.mp4');
const sceneFile = join(cache, 'scene-1080p25.mp4');
const schedule = sceneSchedule(SOURCE_S);
await hdFootage(hd, sceneFile, SOURCE_S, (path) => makeSceneClip(path, schedule, { fps: 25, size: '1920x1080' }));
const source = await probe(hd);
const bitrate = (readFileSync(hd).length * 8) / source.durationSeconds;
console.log(`источник: ${source.width}×${source.height}, ${source.frameRate} к/с, ${round(bitrate / 1e6, 2)} Мбит/с`);

const work = mkdtempSync(join(tmpdir(), 'norma-live-cost-'));
const camera = await startRtspCamera();
const ticks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss_mb: round(kb('VmRSS') / 1024, 1), peak_mb: round(kb('VmHWM') / 1024, 1) };
};

let recorderCost;
const segmentsDir = join(work, 'rec');
mkdirSync(segmentsDir);
try {
  await camera.publish('hd', hd, { asIs: true });
  const { ffmpeg } = await mediaTools();
  const recorder = Bun.spawn([ffmpeg, ...recordArguments({ url: camera.url('hd'), dir: segmentsDir, segmentSeconds: SEGMENT_S })], {
    stdin: 'pipe',
    stdout: 'ignore',
    stderr: 'ignore',
  });
  await Bun.sleep(WARM_S * 1000);
  const cpu0 = ticks(recorder.pid);
  const t0 = performance.now();
  await Bun.sleep(MEASURE_S * 1000);
  const cpu = ticks(recorder.pid) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  recorderCost = { core_share: round(cpu / wall, 4), ...memory(recorder.pid), measured_s: round(wall, 1) };
  recorder.stdin.write('q');
  await recorder.stdin.end();
  await recorder.exited;
} finally {
  await camera.stop();
}
const closed = parseSegmentList(existsSync(join(segmentsDir, SEGMENT_LIST)) ? readFileSync(join(segmentsDir, SEGMENT_LIST), 'utf8') : '');
console.log(`регистратор (ffmpeg): ${JSON.stringify(recorderCost)}; закрытых отрезков: ${closed.length}`);
if (closed.length < 3) throw new Error(`закрытых отрезков ${closed.length}: поток не записался`);

// Per segment: the recorder's work, old ingest, new light path, labels.
const { ffmpeg } = await mediaTools();
const store = join(work, 'store');
mkdirSync(store);
const perSegment: { recorder: number; light: number; ingest: number; label: number; seconds: number }[] = [];
// A model trained on the same picture (the first 20 s of the scene, 1080p), as a camera's model is.
const trained = await trainOperationModel({
  video: { file: sceneFile, width: 1920, height: 1080 },
  startSecond: 0,
  endSecond: 20,
  ...sceneTraining(schedule, 20),
});
for (const [i, segment] of closed.entries()) {
  const path = join(segmentsDir, segment.file);
  const seconds = segment.end - segment.start;
  const recorderWork = await measured(async () => {
    await segmentTracks(path);
    const hash = createHash('sha256');
    hash.update(readFileSync(path));
    hash.digest('hex');
    copyFileSync(path, join(store, `${i}.mp4`));
  });
  // The light path: one inspection says the recorder's segment is browser-ready (h264, MP4, index first).
  const light = await measured(() => inspectRecording(join(store, `${i}.mp4`)));
  if (light.value.plan.action !== 'none') throw new Error(`отрезок ${i} не готов для браузера: ${light.value.plan.reasons.join('; ')}`);
  // The old ingest job's media work on the segment as the recorder wrote it before (its index at the end).
  const old = join(work, `old-${i}.mp4`);
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-i', path, '-c', 'copy', '-f', 'mp4', old]);
  const ingest = await measured(async () => {
    const inspected = await inspectRecording(old);
    await checkIntegrity(old, inspected.info.durationSeconds);
    if (inspected.plan.action !== 'none') {
      await convertForBrowser(inspected, old, join(work, `old-${i}.ready.mp4`), {});
      await inspectRecording(join(work, `old-${i}.ready.mp4`));
    }
    return inspected.plan.action;
  });
  const label = await measured(async () => {
    const info = await probe(path);
    await applyOperationModel({
      video: { file: path, width: info.width!, height: info.height! },
      startSecond: 0,
      endSecond: seconds,
      onnx: trained.onnx,
      spec: trained.spec,
    });
  });
  perSegment.push({ recorder: recorderWork.cpu, light: light.cpu, ingest: ingest.cpu, label: label.cpu, seconds });
  console.log(
    `отрезок ${i} (${round(seconds, 2)} с): регистратор ${round(recorderWork.cpu)} с, лёгкий путь ${round(light.cpu)} с, прежний приём (${ingest.value}) ${round(ingest.cpu)} с, разметка ${round(label.cpu)} с процессора`,
  );
}
const viewCheck = await measured(() =>
  checkPicture(trained.spec, { file: join(segmentsDir, closed.at(-1)!.file), width: 1920, height: 1080 }, { startSecond: 0, endSecond: SEGMENT_S }),
);
rmSync(work, { recursive: true, force: true });

// Mean processor seconds per second of stream (the first segment of a connection is shorter).
const streamSeconds = perSegment.reduce((sum, s) => sum + s.seconds, 0);
const perSecond = (key: 'recorder' | 'light' | 'ingest' | 'label') => perSegment.reduce((sum, s) => sum + s[key], 0) / streamSeconds;
const recording = recorderCost!.core_share;
const before = recording + perSecond('recorder') + perSecond('ingest');
const after = recording + perSecond('recorder') + perSecond('light');
const labels = perSecond('label') + viewCheck.cpu / VIEW_CHECK_EVERY_S;
const usable = CORES * (1 - RESERVE);
const result = {
  machine: { cores: cpus().length, loadavg: loadavg().map((l) => round(l, 1)) },
  stream: { width: source.width, height: source.height, frame_rate: source.frameRate, mbit_s: round(bitrate / 1e6, 2), segment_s: SEGMENT_S },
  recorder_ffmpeg: recorderCost,
  per_segment_cpu_s: {
    segments: perSegment.length,
    recorder: round(perSecond('recorder') * SEGMENT_S),
    ingest_before: round(perSecond('ingest') * SEGMENT_S),
    light_path_after: round(perSecond('light') * SEGMENT_S),
    live_labels: round(perSecond('label') * SEGMENT_S),
  },
  view_check_cpu_s: round(viewCheck.cpu),
  core_share_per_camera: {
    record_before: round(before, 4),
    record_after: round(after, 4),
    live_labels: round(labels, 4),
    record_and_label_before: round(before + labels, 4),
    record_and_label_after: round(after + labels, 4),
  },
  cameras_per_2_cores: {
    reserve: RESERVE,
    record_only_after: Math.floor(usable / after),
    record_and_label_before: Math.floor(usable / (before + labels)),
    record_and_label_after: Math.floor(usable / (after + labels)),
    memory_mb_recorders: Math.round((recorderCost!.peak_mb * Math.floor(usable / (after + labels))) as number),
  },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'live-cameras.json'), `${JSON.stringify(result, null, 2)}\n`);
