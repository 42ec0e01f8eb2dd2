/**
 * One organisation's upload while another's large ones are processed (issue 39): the real server
 * (`bun api/src/main.ts`, its job runner with the default NORMA_JOB_SLOTS), two organisations
 * registered through the API, each with its own camera.
 *   - organisation A: a small recording (10 s 640×360 MPEG-4 Part 2 in AVI: transcoded to H.264, so that
 *     it needs the processor as B's do), uploaded and waited for, first on an idle server, then while
 *     organisation B's uploads are transcoded, then idle again;
 *   - organisation B: several large recordings uploaded first (1920×1080 25 fps MPEG-4 Part 2 in AVI,
 *     MP3 sound: transcoded to H.264), the heaviest kind of upload the server takes.
 * A's ingest time is the job's own (queued → success, by the server's clock); each loaded run is a
 * ratio to the median of the idle runs of the same bench run (target ≤ 2).
 *   node_modules/.bin/bun bench/ingest-fairness.bench.ts     → bench/results/ingest-fairness.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTools, run } from '../workers/src/media/ffmpeg';
import { sessionCookieOf } from '../api/test-support/cookies';
import { startServer } from '../tests/support/server';

const SMALL_SECONDS = 10;
const LARGE_SECONDS = 90;
const LARGE_UPLOADS = 3;
const IDLE_RUNS_BEFORE = 3;
const LOADED_RUNS = 4;
const IDLE_RUNS_AFTER = 2;
const PASSWORD = 'bench-pass-1';

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const work = mkdtempSync(join(tmpdir(), 'norma-ingest-fairness-'));
const { ffmpeg } = await mediaTools();
const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];

/** A 640×360 25 fps MPEG-4 Part 2 clip with MP3 sound in AVI, as an older camera writes: the server transcodes it to H.264. */
async function makeSmall() {
  const path = join(work, 'small.avi');
  const picture = `testsrc2=size=640x360:rate=25:duration=${SMALL_SECONDS}`;
  const sound = `sine=frequency=300:duration=${SMALL_SECONDS}`;
  const video = ['-c:v', 'mpeg4', '-q:v', '4'];
  await run(ffmpeg, [...quiet, '-f', 'lavfi', '-i', picture, '-f', 'lavfi', '-i', sound, ...video, '-c:a', 'libmp3lame', '-b:a', '96k', '-f', 'avi', path]);
  return path;
}

/** A 1920×1080 25 fps MPEG-4 Part 2 recording with MP3 sound in AVI: the server transcodes it to H.264. */
async function makeLarge() {
  const path = join(work, 'large.avi');
  const picture = `testsrc2=size=1920x1080:rate=25:duration=${LARGE_SECONDS}`;
  const sound = `sine=frequency=500:duration=${LARGE_SECONDS}`;
  await run(ffmpeg, [
    ...quiet,
    '-f',
    'lavfi',
    '-i',
    picture,
    '-f',
    'lavfi',
    '-i',
    sound,
    '-c:v',
    'mpeg4',
    '-q:v',
    '4',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-f',
    'avi',
    path,
  ]);
  return path;
}

/** A byte-different copy (another metadata comment, streams copied): the server refuses the same content twice. */
async function variant(source: string, n: number) {
  const extension = source.slice(source.lastIndexOf('.'));
  const path = source.replace(extension, `-${n}${extension}`);
  const format = extension === '.avi' ? 'avi' : 'matroska';
  await run(ffmpeg, [...quiet, '-i', source, '-map', '0', '-c', 'copy', '-metadata', `comment=run ${n}`, '-f', format, path]);
  return path;
}

console.log('готовлю исходные ролики…');
const small = await makeSmall();
const large = await makeLarge();
const smallCopies = await Promise.all(Array.from({ length: IDLE_RUNS_BEFORE + LOADED_RUNS + IDLE_RUNS_AFTER }, (_, i) => variant(small, i + 1)));
const largeCopies = await Promise.all(Array.from({ length: LARGE_UPLOADS }, (_, i) => variant(large, i + 1)));

const server = await startServer({ NORMA_DEMO: '0', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  type Job = { status: string; error: string | null; created_at: string; updated_at: string; result: { action?: string } | null };
  /** An organisation of its own (POST /api/v2/register) with one camera (admin API); its cookie and camera. */
  const organisation = async (login: string) => {
    const registered = await fetch(`${server.url}/api/v2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ login, password: PASSWORD, first_name: 'Замер', last_name: login }),
    });
    if (!registered.ok) throw new Error(`регистрация ${login}: ${registered.status} ${await registered.text()}`);
    const cookie = sessionCookieOf(registered);
    const api = async <T>(path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${path}`, { ...init, headers: { cookie, origin: server.url, ...(init.headers ?? {}) } });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const post = <T>(path: string, body: unknown) =>
      api<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const structure = await post<{ id: number }>('/api/v1/admin/structures', { name: `Цех ${login}` });
    const camera = await post<{ id: number }>('/api/v1/admin/cameras', {
      structure_id: structure.id,
      camera_key: 1,
      name: 'Камера 1',
      storage_folder: `bench-${login}`,
    });
    const upload = async (path: string, name: string) => {
      const started = performance.now();
      const reply = await api<{ video_id: number; job_id: number }>(`/api/v1/upload?camera_id=${camera.id}&filename=${name}`, {
        method: 'POST',
        headers: { 'content-type': 'video/mp4' },
        body: Bun.file(path),
      });
      return { ...reply, uploadSeconds: (performance.now() - started) / 1000 };
    };
    const job = (id: number) => api<Job>(`/api/v1/jobs/${id}`);
    return { upload, job };
  };
  const orgA = await organisation('bench-a');
  const orgB = await organisation('bench-b');
  const bJobs: number[] = [];
  const bRunning = async () => {
    let running = 0;
    for (const id of bJobs) if ((await orgB.job(id)).status === 'running') running++;
    return running;
  };

  /** A's small upload, waited for: its job's time by the server's clock, and the wall time until it was seen done. */
  let uploads = 0;
  const ingestA = async (phase: 'idle' | 'loaded') => {
    const n = uploads++;
    const { job_id: id, uploadSeconds } = await orgA.upload(
      smallCopies[n]!,
      `cam1_2026-12-01_0${Math.floor(n / 6)}-${String((n % 6) * 10).padStart(2, '0')}-00.mp4`,
    );
    const waitStarted = performance.now();
    let job: Job;
    let seenRunning: number | null = null;
    let bBusy = 0;
    for (;;) {
      job = await orgA.job(id);
      if (job.status === 'running' && seenRunning === null) seenRunning = (performance.now() - waitStarted) / 1000;
      if (job.status === 'success' || job.status === 'failed') break;
      await Bun.sleep(25);
    }
    if (job.status !== 'success') throw new Error(`задача ${id} не выполнена: ${job.error}`);
    if (phase === 'loaded') bBusy = await bRunning();
    const run = {
      phase,
      job_seconds: round((Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000),
      wall_seconds: round((performance.now() - waitStarted) / 1000),
      seen_running_after_seconds: seenRunning === null ? null : round(seenRunning),
      upload_seconds: round(uploadSeconds),
      action: job.result?.action ?? null,
      ...(phase === 'loaded' ? { b_jobs_running_at_end: bBusy } : {}),
    };
    console.log(run);
    return run;
  };

  const runs = [];
  for (let i = 0; i < IDLE_RUNS_BEFORE; i++) runs.push(await ingestA('idle'));

  console.log(`организация Б загружает ${LARGE_UPLOADS} больших записи…`);
  const bUploads = [];
  for (const [i, path] of largeCopies.entries()) {
    const uploaded = await orgB.upload(path, `cam1_2026-12-01_1${i}-00-00.mp4`);
    bJobs.push(uploaded.job_id);
    bUploads.push(uploaded);
  }
  const until = async (check: () => Promise<boolean>) => {
    while (!(await check())) await Bun.sleep(50);
  };
  await until(async () => (await bRunning()) > 0);
  for (let i = 0; i < LOADED_RUNS; i++) {
    const loaded = await ingestA('loaded');
    if (loaded.b_jobs_running_at_end === 0) console.log('  (задачи Б к концу этого прогона уже не выполнялись)');
    runs.push(loaded);
  }
  const loadAverageUnderLoad = loadavg().map((value) => round(value, 1));
  console.log('жду, пока организация Б закончит…');
  const bJobViews: Job[] = [];
  for (const id of bJobs) {
    let job: Job;
    for (;;) {
      job = await orgB.job(id);
      if (job.status === 'success' || job.status === 'failed') break;
      await Bun.sleep(250);
    }
    bJobViews.push(job);
  }
  for (let i = 0; i < IDLE_RUNS_AFTER; i++) runs.push(await ingestA('idle'));

  const idle = median(runs.filter((r) => r.phase === 'idle').map((r) => r.job_seconds));
  const loaded = runs.filter((r) => r.phase === 'loaded');
  const ratios = loaded.map((r) => round(r.job_seconds / idle));
  const result = {
    name: 'ingest-fairness',
    date: new Date().toISOString(),
    runtime: `bun ${Bun.version}`,
    cpus: cpus().length,
    job_slots: 'default (NORMA_JOB_SLOTS unset: 2)',
    small_upload: `A: ${SMALL_SECONDS} s 640x360 25 fps MPEG-4 Part 2 + MP3 in AVI (${round(Bun.file(small).size / 1024 ** 2, 1)} MB) → transcode to H.264`,
    large_uploads: `B: ${LARGE_UPLOADS} × ${LARGE_SECONDS} s 1920x1080 25 fps MPEG-4 Part 2 + MP3 in AVI (${round(Bun.file(large).size / 1024 ** 2, 1)} MB each) → transcode to H.264`,
    b_job_seconds: bJobViews.map((job) => round((Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000, 1)),
    b_job_status: bJobViews.map((job) => job.status),
    b_upload_seconds: bUploads.map((u) => round(u.uploadSeconds)),
    idle_job_seconds_median: round(idle),
    idle_job_seconds: runs.filter((r) => r.phase === 'idle').map((r) => r.job_seconds),
    loaded_job_seconds: loaded.map((r) => r.job_seconds),
    loaded_ratio_to_idle: ratios,
    loaded_ratio_to_idle_median: round(median(ratios)),
    loaded_ratio_to_idle_max: Math.max(...ratios),
    load_average_under_load: loadAverageUnderLoad,
    runs,
  };
  console.log(result);
  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'ingest-fairness.json'), JSON.stringify(result, null, 2) + '\n');
  console.log('записано bench/results/ingest-fairness.json');
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
