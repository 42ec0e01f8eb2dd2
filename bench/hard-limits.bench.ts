/**
 * Issue 24, "request size, shape and fair share": how slow does GET /api/v1/whoami get for a
 * bystander while others send the worst bodies the schemas allow, or flood the heavy reports?
 * The real server (`bun api/src/main.ts`) with the demo data, whose markups are copied over 62 days
 * so that a 62-day report has work to do. A probe sends whoami one at a time throughout each phase;
 * its p99 is compared with the idle p99 of the same run (target: p99 under 100 ms, docs/performance.md).
 *   node_modules/.bin/bun bench/hard-limits.bench.ts
 * Writes bench/results/hard-limits.json.
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';
import { spreadDemoMarkups } from './support/demo-window.ts';

const PHASE_MS = 6000;
const ATTACK_CONCURRENCY = 4;
const REPORT_FLOOD = 50;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const round = (x: number) => Math.round(x * 100) / 100;

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const signIn = (login: string) => apiSessionCookie(server.url, login);
  const roles = ['admin', 'analyst', 'assessor', 'viewer'] as const;
  const cookies = Object.fromEntries(await Promise.all(roles.map(async (role) => [role, await signIn(role)] as const))) as Record<
    (typeof roles)[number],
    string
  >;
  const probeCookie = await signIn('viewer');
  const structures = (await (await fetch(`${server.url}/api/v2/get_all_structures`, { headers: { cookie: cookies.analyst } })).json()) as {
    id: number;
    name: string;
  }[];
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;

  // The demo's two days of markups, copied to every other day pair of 62 days (without their videos).
  const db = new Database(join(server.dataDir, 'norma.sqlite'));
  const markupRows = spreadDemoMarkups(db, leaf.id);
  const videoId = (
    db.query('SELECT videos.id FROM videos JOIN cameras ON cameras.id = videos.camera_id WHERE cameras.structure_id = ? LIMIT 1').get(leaf.id) as { id: number }
  ).id;
  db.close();
  const window62 = `from_time=${new Date(Date.UTC(2026, 9, 16, 21)).toISOString()}&to_time=${new Date(Date.UTC(2026, 11, 16, 21)).toISOString()}`;

  /** whoami one at a time, on a thread of its own, until `stop` settles; latencies in ms. */
  const prober = new Worker(new URL('./support/whoami-probe.ts', import.meta.url).href);
  const probe = async (stop: Promise<unknown>) => {
    const latencies = new Promise<number[]>((resolve) => (prober.onmessage = (event: MessageEvent<number[]>) => resolve(event.data)));
    prober.postMessage({ start: { url: `${server.url}/api/v1/whoami`, cookie: probeCookie } });
    await stop;
    prober.postMessage({ stop: true });
    return latencies;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** `send` repeated by `concurrency` loops until the phase ends; the status codes seen. */
  const attack = async (concurrency: number, send: () => Promise<Response>, stop: Promise<unknown>) => {
    let done = false;
    void stop.then(() => (done = true));
    const statuses: Record<string, number> = {};
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (!done) {
          try {
            const response = await send();
            await response.arrayBuffer();
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          } catch {
            statuses.error = (statuses.error ?? 0) + 1;
          }
        }
      }),
    );
    return statuses;
  };
  const phase = async (name: string, attackers: ((stop: Promise<unknown>) => Promise<Record<string, number>>)[]) => {
    const stop = pause(PHASE_MS);
    const [latencies, ...statuses] = await Promise.all([probe(stop), ...attackers.map((a) => a(stop))]);
    const merged: Record<string, number> = {};
    for (const s of statuses) for (const [code, n] of Object.entries(s)) merged[code] = (merged[code] ?? 0) + n;
    return {
      case: name,
      probes: latencies.length,
      whoami_p50_ms: round(percentile(latencies, 50)),
      whoami_p99_ms: round(percentile(latencies, 99)),
      whoami_max_ms: round(Math.max(...latencies)),
      attack_statuses: merged,
    };
  };

  const send =
    (method: string, path: string, body: BodyInit, cookie?: string, headers: Record<string, string> = {}) =>
    () =>
      fetch(`${server.url}${path}`, { method, body, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers } });

  // The worst bodies the limits let through to each call (and a few they stop at the door).
  const calculatorBad = (bytes: number) =>
    `[${Array(Math.floor((bytes - 2) / 3))
      .fill('{}')
      .join(',')}]`;
  const pointsBad = (bytes: number) =>
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: Array(Math.floor(bytes / 6)).fill(['x']) }, properties: { type: 'road' } }],
    });
  const drawingValid = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: Array.from({ length: 200_000 }, (_, i) => [30 + i * 1e-6, 59.9]) },
        properties: { type: 'road' },
      },
    ],
  });
  const markupsBad = JSON.stringify({
    base_version: 0,
    video_markups: Array(20_000).fill({ operation_id: 'x', workplace_id: 'x', start_time: 'x', end_time: 'x', comment: 1 }),
  });
  const periodBad = JSON.stringify({
    base_version: 'x',
    operation_markups: Array(5000).fill({ operation_id: 'x', workplace_id: 'x', start_time: 'x', end_time: 'x' }),
  });
  const login52mb = 'x'.repeat(52 * 1024 * 1024);
  const anonymous = [
    (stop: Promise<unknown>) => attack(ATTACK_CONCURRENCY, send('POST', '/api/v2/update_calculator_defaults', calculatorBad(64 * 1024 - 1)), stop),
    (stop: Promise<unknown>) => attack(1, send('POST', '/api/v1/login', login52mb), stop),
    (stop: Promise<unknown>) => attack(2, send('POST', '/api/auth/sign-in/username', calculatorBad(1024 * 1024)), stop),
    (stop: Promise<unknown>) => attack(2, () => fetch(`${server.url}/api/v1/resolve_hash/${crypto.randomUUID().replaceAll('-', '')}`), stop),
  ];
  const asRole = (cookie: string) => [
    (stop: Promise<unknown>) => attack(1, send('POST', '/api/v1/projects/last/save', pointsBad(16 * 1024 * 1024 - 1024), cookie), stop),
    (stop: Promise<unknown>) => attack(1, send('PUT', `/api/v1/video_markups/${videoId}`, markupsBad, cookie), stop),
    (stop: Promise<unknown>) => attack(1, send('POST', `/api/v1/operation_markups?structure_id=${leaf.id}&${window62}`, periodBad, cookie), stop),
    (stop: Promise<unknown>) => attack(1, send('POST', '/api/v2/update_calculator_defaults', calculatorBad(64 * 1024 - 1), cookie), stop),
  ];

  // The valid drawing is saved into a project of the admin's organisation.
  const created = await fetch(`${server.url}/api/v1/projects/create`, {
    method: 'POST',
    body: JSON.stringify({ name: 'Нагрузка' }),
    headers: { 'content-type': 'application/json', cookie: cookies.admin },
  });
  if (created.status !== 200) throw new Error(`project: ${created.status} ${await created.text()}`);

  const results = [];
  const idle = await phase('idle', []);
  results.push(idle);
  results.push(await phase('anonymous: worst bodies (calculator 64 KiB of {}, 52 MB login, 1 MB to better-auth, share-key guessing)', anonymous));
  for (const role of roles)
    results.push(await phase(`${role}: worst bodies (16 MiB of bad points, 20 000 bad markups, 5000 bad period rows, calculator)`, asRole(cookies[role])));
  results.push(
    await phase('admin: largest valid drawing (200 000 points, 4.8 MB) saved in a loop', [
      (stop) => attack(1, send('POST', '/api/v1/projects/last/save', drawingValid, cookies.admin), stop),
    ]),
  );
  const reportFlood = (stop: Promise<unknown>) =>
    Promise.all(
      roles.map((role) =>
        attack(
          Math.ceil(REPORT_FLOOD / roles.length),
          () => fetch(`${server.url}/api/v2/report?structure_id=${leaf.id}&${window62}`, { headers: { cookie: cookies[role] } }),
          stop,
        ),
      ),
    ).then((all) =>
      all.reduce<Record<string, number>>((sum, s) => {
        for (const [code, n] of Object.entries(s)) sum[code] = (sum[code] ?? 0) + n;
        return sum;
      }, {}),
    );
  results.push(await phase(`report flood: ${REPORT_FLOOD} concurrent 62-day GET /api/v2/report from 4 users`, [reportFlood]));
  const one = performance.now();
  const single = await fetch(`${server.url}/api/v2/report?structure_id=${leaf.id}&${window62}`, { headers: { cookie: cookies.analyst } });
  await single.arrayBuffer();
  const singleReportMs = round(performance.now() - one);

  const withRatio = results.map((r) => ({ ...r, p99_ratio_to_idle: round(r.whoami_p99_ms / idle.whoami_p99_ms) }));
  const output = {
    bench: 'hard-limits',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_1m: round(loadavg()[0]!) },
    markup_rows_in_structure: markupRows,
    single_62_day_report_ms: singleReportMs,
    target: 'whoami p99 < 100 ms for a bystander in every phase',
    cases: withRatio,
    worst_p99_ratio_to_idle: Math.max(...withRatio.map((r) => r.p99_ratio_to_idle)),
    worst_p99_ms: Math.max(...withRatio.map((r) => r.whoami_p99_ms)),
  };
  for (const r of withRatio)
    console.log(
      `${r.case}\n  whoami p50 ${r.whoami_p50_ms} ms, p99 ${r.whoami_p99_ms} ms, max ${r.whoami_max_ms} ms (×${r.p99_ratio_to_idle} idle), ${r.probes} probes; attack ${JSON.stringify(r.attack_statuses)}`,
    );
  console.log(`one 62-day report alone: ${singleReportMs} ms (${markupRows} markup rows)`);
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'hard-limits.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(output, null, 2)}\n`);
  prober.terminate();
} finally {
  await server.stop();
}
