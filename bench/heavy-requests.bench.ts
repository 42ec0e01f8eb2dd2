/**
 * Issue 39, findings 3 and 4: how much slower is an uninvolved viewer's report while
 *   (a) one user sends 50 wide reports at once through 10 of their share keys (GET /api/v2/frv), and
 *   (b) one user builds 8 norm cards at once (POST /api/v1/norms, 62 windows each)?
 * Each as a ratio (median of 3 bursts) to the same viewer's report when the server is idle, in the same run. The real
 * server (`bun api/src/main.ts`) with the demo data, whose markups are copied over 62 days (as in
 * bench/hard-limits.bench.ts) so that a 62-day report and a 62-window card have work to do.
 *   node_modules/.bin/bun bench/heavy-requests.bench.ts      (npm run bench -- heavy-requests)
 * Writes bench/results/heavy-requests.json, with the load average at the start and at the end: on a shared
 * two-core machine the ratios move with it, so compare runs made one after another.
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, zonedInstant } from '../api/src/time-zone.ts';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';
import { spreadDemoMarkups } from './support/demo-window.ts';

const VIEWER_SAMPLES = 3;
/** How long after a burst the viewer's report is sent: the burst is counted, its refused part answered. */
const FLOOD_WARM_MS = 300;
const KEYS = 10;
const KEY_FLOOD = 50;
const NORM_FLOOD = 8;
/** Case (c): month-long interactive reports each flooding user keeps going (their share: 2 running, 4 waiting), and the analyst's day reports. */
const FLOOD_IN_FLIGHT = 6;
const DAY_SAMPLES = 20;

const round = (x: number) => Math.round(x * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const loadAtStart = loadavg()[0]!;
const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const [analyst, viewer] = await Promise.all([apiSessionCookie(server.url, 'analyst'), apiSessionCookie(server.url, 'viewer')]);
  const get = (path: string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { headers });
  const post = (path: string, body: unknown, cookie: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: server.url, cookie } });
  const structures = (await (await get('/api/v2/get_all_structures', { cookie: analyst })).json()) as { id: number; name: string }[];
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;

  // The demo's two days of markups, copied to every other day pair of 62 days (without their videos).
  const db = new Database(join(server.dataDir, 'norma.sqlite'));
  const markupRows = spreadDemoMarkups(db, leaf.id);
  db.close();
  const window = { from_time: new Date(Date.UTC(2026, 9, 16, 21)).toISOString(), to_time: new Date(Date.UTC(2026, 11, 16, 21)).toISOString() };
  const window62 = `structure_id=${leaf.id}&from_time=${window.from_time}&to_time=${window.to_time}`;

  /** The viewer's 62-day report, VIEWER_SAMPLES times one after another: ms and status of each. */
  const viewerReports = async () => {
    const samples: { ms: number; status: number }[] = [];
    for (let i = 0; i < VIEWER_SAMPLES; i++) {
      const start = performance.now();
      const response = await get(`/api/v2/report?${window62}`, { cookie: viewer });
      await response.arrayBuffer();
      samples.push({ ms: performance.now() - start, status: response.status });
    }
    return samples;
  };

  /**
   * The viewer's report while a burst of `count` heavy requests sent at once is under way, as the
   * tester sent them: each sample is one burst, the viewer's report sent FLOOD_WARM_MS after it (its
   * refused part answered, its admitted part running and queued), and the burst waited out before the next.
   */
  const during = async (name: string, count: number, send: (i: number) => Promise<Response>, idleMs: number) => {
    const statuses: Record<string, number> = {};
    const samples: { ms: number; status: number }[] = [];
    for (let sample = 0; sample < VIEWER_SAMPLES; sample++) {
      const burst = Array.from({ length: count }, (_, i) =>
        send(i).then(
          async (response) => {
            await response.arrayBuffer();
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          },
          () => (statuses.error = (statuses.error ?? 0) + 1),
        ),
      );
      await pause(FLOOD_WARM_MS);
      const start = performance.now();
      const response = await get(`/api/v2/report?${window62}`, { cookie: viewer });
      await response.arrayBuffer();
      samples.push({ ms: performance.now() - start, status: response.status });
      await Promise.all(burst);
    }
    const ms = median(samples.map((s) => s.ms));
    return {
      case: name,
      viewer_report_ms: samples.map((s) => round(s.ms)),
      viewer_statuses: samples.map((s) => s.status),
      viewer_median_ms: round(ms),
      ratio_to_idle: round(ms / idleMs),
      burst_statuses: statuses,
    };
  };

  // Ten keys of the analyst's, each for the 62-day window.
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const response = await post('/api/v1/generate_hash', { structure_id: leaf.id, ...window }, analyst);
    if (response.status !== 200) throw new Error(`key: ${response.status} ${await response.text()}`);
    keys.push(((await response.json()) as { hash: string }).hash);
  }
  // A card of up to 62 employee-days: every employee of each date with markups.
  const dates = (await (await get(`/api/v1/report/dates?structure_id=${leaf.id}`, { cookie: analyst })).json()) as {
    dates: string[];
    employees: Record<string, number[]>;
    time_zone: string;
  };
  const windows = dates.dates
    .flatMap((date) =>
      (dates.employees[date] ?? []).map((employee) => ({
        employee_id: employee,
        from_time: new Date(zonedInstant(date, '00:00:00', dates.time_zone)).toISOString(),
        to_time: new Date(zonedInstant(addDays(date, 1), '00:00:00', dates.time_zone)).toISOString(),
      })),
    )
    .slice(0, 62);
  const built = performance.now();
  const one = await post(`/api/v1/norms?structure_id=${leaf.id}`, { title: 'Замер', windows }, analyst);
  if (one.status !== 201) throw new Error(`norm card: ${one.status} ${await one.text()}`);
  await one.arrayBuffer();
  const singleCardMs = round(performance.now() - built);

  await viewerReports(); // warm-up: the first report compiles and caches what every later one reuses
  const idleSamples = await viewerReports();
  const idleMs = median(idleSamples.map((s) => s.ms));
  const cases = [
    await during(
      `(a) ${KEY_FLOOD} 62-day GET /api/v2/frv at once through ${KEYS} share keys of one user`,
      KEY_FLOOD,
      (i) => get(`/api/v2/frv?${window62}`, { 'x-norma-share-key': keys[i % KEYS]! }),
      idleMs,
    ),
    await during(
      `(b) ${NORM_FLOOD} POST /api/v1/norms (${windows.length} windows) at once by one user`,
      NORM_FLOOD,
      () => post(`/api/v1/norms?structure_id=${leaf.id}`, { title: 'Нагрузка', windows }, analyst),
      idleMs,
    ),
  ];

  const floodCase = await dayReportDuringFlood(leaf.id, analyst);

  const output = {
    bench: 'heavy-requests',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_1m_at_start: round(loadAtStart), load_1m: round(loadavg()[0]!) },
    markup_rows_in_structure: markupRows,
    single_norm_card_ms: singleCardMs,
    idle: { viewer_report_ms: idleSamples.map((s) => round(s.ms)), viewer_median_ms: round(idleMs) },
    cases,
    worst_ratio_to_idle: Math.max(...cases.map((c) => c.ratio_to_idle)),
    day_report_during_flood: floodCase,
  };
  console.log(`idle: viewer's 62-day report ${round(idleMs)} ms (median of ${VIEWER_SAMPLES}); one ${windows.length}-window card alone ${singleCardMs} ms`);
  for (const c of cases)
    console.log(
      `${c.case}\n  viewer ${c.viewer_median_ms} ms (×${c.ratio_to_idle} idle) ${JSON.stringify(c.viewer_statuses)}; bursts ${JSON.stringify(c.burst_statuses)}`,
    );
  console.log(
    `(c) ${floodCase.case}\n  analyst's day: idle ${floodCase.idle_median_ms} ms, during median ${floodCase.median_ms} ms, p90 ${floodCase.p90_ms} ms, max ${floodCase.max_ms} ms (×${floodCase.ratio_to_idle}); flood ${JSON.stringify(floodCase.flood_statuses)}`,
  );
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'heavy-requests.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(output, null, 2)}\n`);

  /**
   * (c) Issue 47, finding 4: three users each keep FLOOD_IN_FLIGHT month-long interactive reports going (from a
   * process of their own, bench/support/report-flood.ts) while an analyst asks for one day's, DAY_SAMPLES times
   * one after another; beside the same analyst's day when the server is idle, in the same run.
   */
  async function dayReportDuringFlood(structureId: number, bystander: string) {
    const flooders = await Promise.all(['admin', 'viewer', 'assessor'].map((login) => apiSessionCookie(server.url, login)));
    const month = `structure_id=${structureId}&from_time=${new Date(Date.UTC(2026, 10, 1, 21)).toISOString()}&to_time=${new Date(Date.UTC(2026, 11, 2, 21)).toISOString()}`;
    const day = `/api/v2/frv?structure_id=${structureId}&from_time=2026-11-15T21:00:00.000Z&to_time=2026-11-16T21:00:00.000Z`;
    const daySamples = async () => {
      const samples: { ms: number; status: number }[] = [];
      for (let i = 0; i < DAY_SAMPLES; i++) {
        const start = performance.now();
        const response = await get(day, { cookie: bystander });
        await response.arrayBuffer();
        samples.push({ ms: performance.now() - start, status: response.status });
      }
      return samples;
    };
    const idle = await daySamples();
    const floodScript = join(dirname(fileURLToPath(import.meta.url)), 'support', 'report-flood.ts');
    const flood = Bun.spawn([process.execPath, floodScript, server.url, `/api/v2/frv?${month}`, String(FLOOD_IN_FLIGHT), ...flooders], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    // Started, then time for every slot and queue to fill.
    await flood.stderr.getReader().read();
    await pause(FLOOD_WARM_MS * 10);
    const during = await daySamples();
    flood.stdin.write('stop\n');
    await flood.stdin.end();
    const floodStatuses = JSON.parse(await new Response(flood.stdout).text()) as Record<string, number>;
    const ms = during.map((s) => s.ms).sort((a, b) => a - b);
    const idleMedian = median(idle.map((s) => s.ms));
    return {
      case: `3 users each keep ${FLOOD_IN_FLIGHT} month-long GET /api/v2/frv going (a separate process); the analyst's 1-day GET /api/v2/frv, ${DAY_SAMPLES} in a row`,
      idle_ms: idle.map((s) => round(s.ms)),
      idle_median_ms: round(idleMedian),
      during_ms: during.map((s) => round(s.ms)),
      statuses: [...new Set(during.map((s) => s.status))],
      median_ms: round(median(ms)),
      p90_ms: round(ms[Math.ceil(ms.length * 0.9) - 1]!),
      max_ms: round(ms.at(-1)!),
      ratio_to_idle: round(median(ms) / idleMedian),
      flood_statuses: floodStatuses,
    };
  }
} finally {
  await server.stop();
}
