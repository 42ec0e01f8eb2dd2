/**
 * Video pipeline against the real server (`bun api/src/main.ts` with its job runner):
 *   - ingest throughput: seconds of video made browser-ready per wall second, for a remux case
 *     (H.264 with the index at the end → faststart) and a transcode case (MPEG-4 Part 2 → H.264);
 *   - upload throughput of POST /api/v1/upload (streamed to storage, hashed on the way);
 *   - seek latency: time from a Range request to its first byte, p50/p90/p99 over random offsets,
 *     interleaved request by request with a bare Bun.file Range server on the same file.
 *   node_modules/.bin/bun bench/video.bench.ts     → bench/results/video.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTools, run } from '../workers/src/media/ffmpeg';
import { apiSessionCookie, startServer } from '../tests/support/server';
import { startBareServer } from './support/bare';
import { figuresOf, interleavedSeeks, round } from './support/seek';

const REMUX_SECONDS = 120;
const TRANSCODE_SECONDS = 60;
const RUNS = 2;
const SEEKS = 1000;
const SEEK_WARMUP = 50;
const SEEK_BYTES = 64 * 1024;

const work = mkdtempSync(join(tmpdir(), 'norma-video-bench-'));
const { ffmpeg } = await mediaTools();

/** A 1280x720 25 fps clip with motion (testsrc2) and AAC audio, in the given video codec. */
async function makeSource(name: string, seconds: number, codec: 'h264' | 'mpeg4') {
  const path = join(work, name);
  const video = codec === 'h264' ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'] : ['-c:v', 'mpeg4', '-q:v', '4'];
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=300:duration=${seconds}`,
    ...video,
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-f',
    'mp4',
    path,
  ]);
  return path;
}

/** A byte-different copy (another metadata comment): the server refuses the same content twice. */
async function variant(source: string, n: number) {
  const path = source.replace(/\.mp4$/, `-${n}.mp4`);
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-i', source, '-map', '0', '-c', 'copy', '-metadata', `comment=run ${n}`, '-f', 'mp4', path]);
  return path;
}

console.log('готовлю исходные ролики…');
const remuxSource = await makeSource('remux.mp4', REMUX_SECONDS, 'h264');
const transcodeSource = await makeSource('transcode.mp4', TRANSCODE_SECONDS, 'mpeg4');

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const cookie = await apiSessionCookie(server.url, 'assessor');
  const api = async <T>(path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const structures = await api<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const cameras = await api<{ id: number; camera_key: number }[]>(`/api/v1/cameras?structure_id=${leaf.id}`);
  const cameraId = cameras[0]!.id;

  type Job = {
    status: string;
    progress: number;
    error: string | null;
    result: { action: string; duration: number } | null;
    created_at: string;
    updated_at: string;
  };
  const ingest = async (path: string, name: string) => {
    const size = Bun.file(path).size;
    const uploadStarted = performance.now();
    const uploaded = await api<{ video_id: number; job_id: number }>(`/api/v1/upload?camera_id=${cameraId}&filename=${name}`, {
      method: 'POST',
      body: Bun.file(path),
      headers: { 'content-type': 'video/mp4' },
    });
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    const waitStarted = performance.now();
    let job: Job;
    for (;;) {
      job = await api<Job>(`/api/v1/jobs/${uploaded.job_id}`);
      if (job.status === 'success' || job.status === 'failed') break;
      await Bun.sleep(50);
    }
    if (job.status !== 'success') throw new Error(`задача не выполнена: ${job.error}`);
    const wallSeconds = (performance.now() - waitStarted) / 1000;
    const serverSeconds = (Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000;
    return { videoId: uploaded.video_id, size, uploadSeconds, wallSeconds, serverSeconds, action: job.result!.action, duration: job.result!.duration };
  };

  const ingestCases = [];
  let seekVideo = 0;
  for (const [label, source, seconds] of [
    [`remux: H.264 1280x720 25 fps + AAC, ${REMUX_SECONDS} s, index at the end → faststart`, remuxSource, REMUX_SECONDS],
    [`transcode: MPEG-4 Part 2 1280x720 25 fps + AAC, ${TRANSCODE_SECONDS} s → H.264 (veryfast, CRF 23)`, transcodeSource, TRANSCODE_SECONDS],
  ] as const) {
    const runs = [];
    for (let n = 1; n <= RUNS; n++) {
      const file = await variant(source, n);
      const result = await ingest(file, `bench-${label.split(':')[0]}-${n}.mp4`);
      runs.push(result);
      seekVideo = result.videoId;
      console.log(label, `#${n}`, result);
    }
    const speed = runs.map((r) => seconds / r.serverSeconds);
    ingestCases.push({
      case: label,
      action: runs[0]!.action,
      video_seconds: seconds,
      file_mb: round(runs[0]!.size / 1024 ** 2, 1),
      runs: RUNS,
      job_seconds: runs.map((r) => round(r.serverSeconds)),
      video_seconds_per_wall_second: round(speed.reduce((a, b) => a + b) / speed.length, 1),
      video_seconds_per_wall_second_runs: speed.map((s) => round(s, 1)),
      upload_mb_per_second: round(Math.max(...runs.map((r) => r.size / 1024 ** 2 / r.uploadSeconds)), 0),
    });
  }

  // Seek latency on the last ingested (browser-ready) video: random 64 KiB ranges, one at a time,
  // from Norma (signed in, session and access checked) and from a bare Bun.file Range server on the
  // same file, interleaved request by request at the same offsets (bench/support/seek.ts): the ratio
  // of the two p99s is what Norma's path costs (target ≤ 2).
  const meta = await api<{ size_bytes: number; duration: number; filename: string }>(`/api/v1/video_meta/${seekVideo}`);
  const [stored] = [...new Bun.Glob(`**/${meta.filename}`).scanSync({ cwd: join(server.dataDir, 'objects'), absolute: true })];
  if (!stored) throw new Error(`файл ${meta.filename} не найден в хранилище`);
  const bare = await startBareServer('range', stored);
  let latencies: number[];
  let bareLatencies: number[];
  try {
    [latencies, bareLatencies] = await interleavedSeeks(
      [
        // The same host form as the bare server's (a name lookup per request would fall on one side only).
        { url: `${server.url.replace('//localhost:', '//127.0.0.1:')}/api/v1/video?video_id=${seekVideo}`, headers: { cookie } },
        { url: `${bare.url}/video`, headers: {} },
      ],
      { size: meta.size_bytes, bytes: SEEK_BYTES, pairs: SEEKS, warmup: SEEK_WARMUP },
    );
  } finally {
    await bare.stop();
  }
  const norma = figuresOf(latencies);
  const baseline = figuresOf(bareLatencies);
  const seek = {
    case: `Range ${SEEK_BYTES / 1024} KiB at a random offset of a ${round(meta.size_bytes / 1024 ** 2, 1)} MB video, sequential, signed in; interleaved with a bare Bun.file server`,
    requests: SEEKS,
    warmup_pairs: SEEK_WARMUP,
    load_average: loadavg().map((value) => round(value, 1)),
    first_byte_p50_ms: norma.p50_ms,
    first_byte_p90_ms: norma.p90_ms,
    first_byte_p99_ms: norma.p99_ms,
    first_byte_mean_ms: norma.mean_ms,
    bare_first_byte_p50_ms: baseline.p50_ms,
    bare_first_byte_p90_ms: baseline.p90_ms,
    bare_first_byte_p99_ms: baseline.p99_ms,
    bare_first_byte_mean_ms: baseline.mean_ms,
    p50_ratio_to_bare: round(norma.p50_ms / baseline.p50_ms),
    p90_ratio_to_bare: round(norma.p90_ms / baseline.p90_ms),
    p99_ratio_to_bare: round(norma.p99_ms / baseline.p99_ms),
  };
  console.log(seek);

  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'video.json'),
    JSON.stringify({ name: 'video', date: new Date().toISOString(), runtime: `bun ${Bun.version}`, cpus: cpus().length, ingest: ingestCases, seek }, null, 2) +
      '\n',
  );
  console.log('записано bench/results/video.json');
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
