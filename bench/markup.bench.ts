// The assessor's screen at scale: an 8-hour 1280×720 25 fps video with 10,000 segments.
// Server: load and save p50/p99 — a save answering the whole list (spec 02's default) and one
// answering only what changed (?reply=changes, what the PWA asks for). Browser (Debian Chromium),
// on this machine's CPU and on a tablet-class CPU (4× slower, Chromium's CPU throttling): cold
// open in a fresh profile until rows are drawn and the video's first frame is decoded (median and
// slowest; beside each, a bare page with only the same video, as the reference), operation keys
// alone, press to next paint by the Event Timing API (p50/p90/slowest), and on the desktop the
// timeline's frame times while zooming and panning (bench/support/markup-browser.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cookiesFor, launchBrowser } from '../tests/support/browser';
import { apiSessionCookie, startServer } from '../tests/support/server';
import { measureBrowser, quantile } from './support/markup-browser';

const SEGMENTS = 10_000;
const DURATION = 8 * 3600;
const VIDEO_SIZE = '1280x720';
/** A tablet-class CPU: Lighthouse's mobile profile slows the CPU 4×. */
const TABLET_CPU_SLOWDOWN = 4;

const scratch = mkdtempSync(join(tmpdir(), 'norma-bench-markup-'));
const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' });
const browser = await launchBrowser();
try {
  const cookie = await apiSessionCookie(server.url, 'assessor');
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  // An 8-hour recording at a real size and 25 fps: a one-minute H.264 clip of a moving test
  // picture (1280×720, a keyframe every 2 s, index first, a low bitrate so eight hours stay a few
  // hundred MB) repeated 480 times by stream copy — 720,000 frames, in seconds instead of encoding
  // eight hours. Uploaded through the real ingest path (browser-ready already, so served as is).
  const minute = join(scratch, 'minute.mp4');
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${VIDEO_SIZE}:rate=25:duration=60`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '50', '-b:v', '100k', '-maxrate', '150k', '-bufsize', '300k'],
    ...['-movflags', '+faststart', minute],
  ]);
  const file = join(scratch, 'eight-hours.mp4');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-stream_loop', String(DURATION / 60 - 1), '-i', minute, '-c', 'copy', '-movflags', '+faststart', file]);
  const structures = await call<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const structure = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const cameras = await call<{ id: number; camera_key: number }[]>(`/api/v1/cameras?structure_id=${structure.id}`);
  const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${cameras[0]!.id}&filename=cam1_2026-11-16_06-00-00.mp4`, {
    method: 'POST',
    headers: { cookie },
    body: Bun.file(file),
  });
  const { video_id: videoId, job_id: jobId } = (await upload.json()) as { video_id: number; job_id: number };
  for (let i = 0; i < 240; i++) {
    const job = await call<{ status: string; error: string | null }>(`/api/v1/jobs/${jobId}`);
    if (job.status === 'success') break;
    if (job.status === 'failed') throw new Error(`ingest failed: ${job.error}`);
    await Bun.sleep(250);
  }
  const { operations } = await call<{ operations: { id: number; type: string }[] }>(`/api/v1/available_operations?video_id=${videoId}`);
  const workplaces = await call<{ id: number }[]>(`/api/v1/workplaces?video_id=${videoId}`);
  const step = DURATION / SEGMENTS;
  const rows = Array.from({ length: SEGMENTS }, (_, i) => ({
    id: -1,
    operation_id: operations[i % operations.length]!.id,
    workplace_id: workplaces[i % 3]!.id,
    employee_id: null,
    start_time: Math.round(i * step * 10) / 10,
    end_time: Math.round((i + 1) * step * 10) / 10,
    comment: null,
  }));

  let t = performance.now();
  let state = await call<{
    version: number;
    video_markups: {
      id: number;
      start_time: number;
      end_time: number;
      operation_id: number;
      workplace_id: number;
      employee_id: number | null;
      comment: string | null;
    }[];
  }>(`/api/v1/video_markups/${videoId}`, { method: 'PUT', body: JSON.stringify({ video_markups: rows, base_version: 0 }) });
  const fullSaveMs = performance.now() - t;

  const loads: number[] = [];
  for (let i = 0; i < 30; i++) {
    t = performance.now();
    await call(`/api/v1/video_markups/${videoId}`);
    loads.push(performance.now() - t);
  }
  const saves: number[] = [];
  for (let i = 0; i < 30; i++) {
    const row = state.video_markups[i * 7]!;
    t = performance.now();
    state = await call(`/api/v1/video_markups/${videoId}`, {
      method: 'PUT',
      body: JSON.stringify({ video_markups: [{ ...row, comment: `правка ${i}` }], base_version: state.version }),
    });
    saves.push(performance.now() - t);
  }

  // The same saves answering only what changed (?reply=changes, what the PWA asks for).
  const changeSaves: number[] = [];
  let version = state.version;
  for (let i = 0; i < 30; i++) {
    const row = state.video_markups[i * 7 + 3]!;
    t = performance.now();
    const reply = await call<{ version: number; video_markups: unknown[] }>(`/api/v1/video_markups/${videoId}?reply=changes`, {
      method: 'PUT',
      body: JSON.stringify({ video_markups: [{ ...row, comment: `изменение ${i}` }], base_version: version }),
    });
    changeSaves.push(performance.now() - t);
    if (reply.video_markups.length !== 1) throw new Error(`a save of one row answered ${reply.video_markups.length} rows`);
    version = reply.version;
  }

  console.log('server figures measured; opening the browser');
  const cookies = cookiesFor(server.url, cookie);
  const desktop = await measureBrowser(browser, { url: server.url, videoId, cookies, cpuSlowdown: 1, timeline: true });
  console.log('desktop', JSON.stringify(desktop));
  const tablet = await measureBrowser(browser, { url: server.url, videoId, cookies, cpuSlowdown: TABLET_CPU_SLOWDOWN, timeline: false });
  console.log('tablet', JSON.stringify(tablet));

  const results = {
    name: 'markup',
    date: new Date().toISOString(),
    runtime: `bun ${Bun.version}, Debian Chromium (headless, software rendering)`,
    video_hours: DURATION / 3600,
    segments: SEGMENTS,
    server: {
      full_save_ms: Math.round(fullSaveMs),
      load_p50_ms: quantile(loads, 0.5),
      load_p99_ms: quantile(loads, 0.99),
      incremental_save_p50_ms: quantile(saves, 0.5),
      incremental_save_p99_ms: quantile(saves, 0.99),
    },
    video: `25 fps H.264 ${VIDEO_SIZE}, 720 000 frames`,
    server_changes_reply: {
      save_p50_ms: quantile(changeSaves, 0.5),
      save_p99_ms: quantile(changeSaves, 0.99),
    },
    browser: desktop,
    tablet: { cpu_slowdown: TABLET_CPU_SLOWDOWN, ...tablet },
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'markup.json'), JSON.stringify(results, null, 2) + '\n');
} finally {
  await browser.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
