// Requests per second and latency of GET /api/v1/whoami and of a markup list read, under
// concurrent load from autocannon against the real server on loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServer } from '../tests/support/server';
import { startBareServer } from './support/bare';

const CONNECTIONS = 16;
const DURATION_S = 8;

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const login = await fetch(`${server.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'analyst', password: 'norma-demo' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const structures = (await (await fetch(`${server.url}/api/v2/get_all_structures`, { headers: { cookie } })).json()) as { id: number; name: string }[];
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const window = 'from_time=2026-11-16T06:00:00Z&to_time=2026-11-16T07:00:00Z';
  const sample = await (await fetch(`${server.url}/api/v1/operation_markups?structure_id=${leaf.id}&${window}`, { headers: { cookie } })).json();
  const rows = (sample as { operation_markups: unknown[] }).operation_markups.length;

  const cases = [
    { case: 'GET /api/v1/whoami (signed in)', path: '/api/v1/whoami' },
    { case: `GET /api/v1/operation_markups, 1 hour of one structure (${rows} rows)`, path: `/api/v1/operation_markups?structure_id=${leaf.id}&${window}` },
  ];
  const results = [];
  for (const item of cases) {
    const result = await autocannon({ url: `${server.url}${item.path}`, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie } });
    const figures: Record<string, unknown> = {
      case: item.case,
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      requests_per_second: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
    };
    console.log(figures);
    results.push(figures);
  }

  // The same whoami from a bare Hono + bun:sqlite server reading the same session row, measured
  // right after, in the same run: the ratio is what the auth path costs (target ≥ 0.5).
  const bare = await startBareServer('whoami', join(server.dataDir, 'norma.sqlite'));
  try {
    const check = (await (await fetch(`${bare.url}/whoami`, { headers: { cookie } })).json()) as { role?: string };
    if (check.role !== 'analyst') throw new Error(`bare whoami answered ${JSON.stringify(check)}`);
    const result = await autocannon({ url: `${bare.url}/whoami`, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie } });
    const norma = results[0]!;
    const figures = {
      case: 'GET /whoami, bare Hono + bun:sqlite, same session row (baseline)',
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      requests_per_second: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
    };
    console.log(figures);
    results.push(figures);
    norma.ratio_to_bare = Math.round(((norma.requests_per_second as number) / figures.requests_per_second) * 100) / 100;
    console.log(`whoami: Norma / bare = ${norma.ratio_to_bare}`);
  } finally {
    await bare.stop();
  }
  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'api-load.json'),
    JSON.stringify({ name: 'api-load', date: new Date().toISOString(), runtime: `bun ${Bun.version}`, cpus: cpus().length, cases: results }, null, 2) + '\n',
  );
} finally {
  await server.stop();
}
