// The assessor's screen at scale: an 8-hour video with 10,000 segments.
// Server: load and save (incremental and full) p50/p99. Browser (Debian Chromium): time to open
// the screen until rows and timeline are drawn, key-press-to-paint latency of keyboard coding, and
// timeline frame times while zooming and panning.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInThroughPage, launchBrowser } from '../tests/support/browser';
import { apiSessionCookie, startServer } from '../tests/support/server';

const SEGMENTS = 10_000;
const DURATION = 8 * 3600;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
};

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

  // An 8-hour recording (1 frame per second keeps it small) uploaded through the real ingest path.
  const file = join(scratch, 'eight-hours.mp4');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=0x263238:s=320x180:r=1:d=${DURATION}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    file,
  ]);
  const structures = await call<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const structure = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const cameras = await call<{ id: number; camera_key: number }[]>(`/api/v1/cameras?structure_id=${structure.id}`);
  const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${cameras[0]!.id}&filename=shift-8h.mp4`, {
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

  console.log('server figures measured; opening the browser');
  // The browser side.
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'assessor');

  const opens: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${server.url}/#/`);
    await page.locator('main h1').first().waitFor();
    t = performance.now();
    await page.goto(`${server.url}/#/video/${videoId}`);
    await page.getByTestId('op-row').first().waitFor();
    await page.locator('[data-testid="timeline"] canvas').first().waitFor();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    opens.push(performance.now() - t);
  }

  console.log('open times', opens.map(Math.round));
  // Key press → the new segment painted: measured inside the page from the keydown event to the
  // animation frame after the operation list's height changed.
  await page.locator('.markup-head h1').click();
  const keyToPaint: number[] = [];
  for (let i = 0; i < 20; i++) {
    await page.evaluate(
      (seconds) => {
        (document.querySelector('video') as HTMLVideoElement).currentTime = seconds;
      },
      60 + i * 30,
    );
    await page.waitForTimeout(50);
    // Arm the measurement first (an evaluate still pending would hold the key press back).
    await page.evaluate(() => {
      const list = document.querySelector('[data-testid="operation-rows"] > div') as HTMLElement;
      (window as unknown as { keyToPaint: Promise<number> }).keyToPaint = new Promise<number>((done) => {
        let start = 0;
        window.addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => done(performance.now() - start));
        });
        observer.observe(list, { attributes: true, attributeFilter: ['style'] });
      });
    });
    await page.keyboard.press('1');
    keyToPaint.push(await page.evaluate(() => (window as unknown as { keyToPaint: Promise<number> }).keyToPaint));
    await page.keyboard.press('Enter');
  }

  console.log('key to paint', keyToPaint.map(Math.round));
  // Timeline frame times while zooming in and panning (wheel events over the canvas).
  const canvas = page.locator('[data-testid="timeline"] canvas').first();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => {
    (window as unknown as { frames: Promise<number[]> }).frames = new Promise<number[]>((done) => {
      const times: number[] = [];
      let last = performance.now();
      const tick = () => {
        const now = performance.now();
        times.push(now - last);
        last = now;
        if (times.length < 120) requestAnimationFrame(tick);
        else done(times.slice(1));
      };
      requestAnimationFrame(tick);
    });
  });
  for (let i = 0; i < 40; i++) {
    await page.mouse.wheel(0, i < 20 ? -120 : 0);
    if (i >= 20) await page.mouse.wheel(240, 0);
  }
  const frameTimes = await page.evaluate(() => (window as unknown as { frames: Promise<number[]> }).frames);
  await context.close();

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
    browser: {
      open_p50_ms: quantile(opens, 0.5),
      open_max_ms: Math.round(Math.max(...opens)),
      key_to_paint_p50_ms: quantile(keyToPaint, 0.5),
      key_to_paint_p99_ms: quantile(keyToPaint, 0.99),
      timeline_frame_p50_ms: quantile(frameTimes, 0.5),
      timeline_frame_p99_ms: quantile(frameTimes, 0.99),
    },
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'markup.json'), JSON.stringify(results, null, 2) + '\n');
} finally {
  await browser.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
