// Requests per second and latency of GET /api/v1/whoami and of a markup list read, under
// concurrent load from autocannon against the real server on loopback; whoami alternates, burst by
// burst, with a bare Hono + bun:sqlite server reading the same session row (bench/support/bare-server.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { apiSessionCookie, startServer } from '../tests/support/server';
import { cpuMillisecondsOf, startBareServer } from './support/bare';

const CONNECTIONS = 16;
const DURATION_S = 8;
/** whoami against the bare server: rounds of one burst each, after a warm-up burst each. */
const ROUNDS = 8;
const BURST_S = 2;
const WARMUP_S = 1;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round2 = (value: number) => Math.round(value * 100) / 100;
const numeric = (url: string) => url.replace('//localhost:', '//127.0.0.1:');

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = (await (await fetch(`${server.url}/api/v2/get_all_structures`, { headers: { cookie } })).json()) as { id: number; name: string }[];
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const window = 'from_time=2026-11-16T06:00:00Z&to_time=2026-11-16T07:00:00Z';
  const sample = await (await fetch(`${server.url}/api/v1/operation_markups?structure_id=${leaf.id}&${window}`, { headers: { cookie } })).json();
  const rows = (sample as { operation_markups: unknown[] }).operation_markups.length;

  // whoami of Norma and of a bare Hono + bun:sqlite server reading the same session row, in short
  // bursts that alternate between the two (and which of them goes first), several rounds, so that
  // the noise of the shared machine falls on both alike. The figure is the median of the per-round
  // ratios (target ≥ 0.5); the ratio of the totals is given beside it.
  const bare = await startBareServer('whoami', join(server.dataDir, 'norma.sqlite'));
  const results: Record<string, unknown>[] = [];
  try {
    const check = (await (await fetch(`${bare.url}/whoami`, { headers: { cookie } })).json()) as { role?: string };
    if (check.role !== 'analyst') throw new Error(`bare whoami answered ${JSON.stringify(check)}`);
    // The same host form for both (a name lookup per request would fall on one of them only).
    const targets = { norma: { url: `${numeric(server.url)}/api/v1/whoami`, pid: server.pid }, bare: { url: `${bare.url}/whoami`, pid: bare.pid } };
    const burst = (url: string, duration: number) => autocannon({ url, connections: CONNECTIONS, duration, headers: { cookie } });
    for (const { url } of Object.values(targets)) await burst(url, WARMUP_S);
    const bursts: Record<keyof typeof targets, autocannon.Result[]> = { norma: [], bare: [] };
    const cpuMs: Record<keyof typeof targets, number> = { norma: 0, bare: 0 };
    const roundRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['norma', 'bare'] as const) : (['bare', 'norma'] as const);
      for (const name of order) {
        const cpuBefore = cpuMillisecondsOf(targets[name].pid);
        bursts[name].push(await burst(targets[name].url, BURST_S));
        cpuMs[name] += cpuMillisecondsOf(targets[name].pid) - cpuBefore;
      }
      roundRatios.push(bursts.norma[round]!.requests.average / bursts.bare[round]!.requests.average);
    }
    const summary = (name: keyof typeof targets, label: string) => {
      const runs = bursts[name];
      const total = runs.reduce((sum, r) => sum + r.requests.total, 0);
      const seconds = runs.reduce((sum, r) => sum + r.duration, 0);
      return {
        case: label,
        connections: CONNECTIONS,
        rounds: ROUNDS,
        duration_s: ROUNDS * BURST_S,
        requests_per_second: Math.round(total / seconds),
        requests_per_second_rounds: runs.map((r) => Math.round(r.requests.average)),
        latency_p50_ms: median(runs.map((r) => r.latency.p50)),
        latency_p99_ms: median(runs.map((r) => r.latency.p99)),
        /** Server CPU time (user + system, all threads) per answered request. */
        server_cpu_us_per_request: Math.round((cpuMs[name] * 1000) / runs.reduce((sum, r) => sum + r.requests.total, 0)),
        non_2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
      };
    };
    const norma = summary('norma', 'GET /api/v1/whoami (signed in)');
    const baseline = summary('bare', 'GET /whoami, bare Hono + bun:sqlite, same session row (baseline)');
    results.push({
      ...norma,
      ratio_to_bare: round2(median(roundRatios)),
      ratio_to_bare_rounds: roundRatios.map(round2),
      ratio_of_totals: round2(norma.requests_per_second / baseline.requests_per_second),
      // What the throughput ratio would be with a core each to themselves: bare CPU per request / Norma's.
      cpu_ratio_to_bare: round2(baseline.server_cpu_us_per_request / norma.server_cpu_us_per_request),
      load_average: loadavg().map((value) => Math.round(value * 10) / 10),
    });
    results.push(baseline);
    console.log(results[0], results[1]);
    console.log(
      `whoami: Norma / bare = ${results[0]!.ratio_to_bare} (median of ${ROUNDS} rounds; totals ${results[0]!.ratio_of_totals}; CPU per request ${results[0]!.cpu_ratio_to_bare})`,
    );
  } finally {
    await bare.stop();
  }

  const markups = `GET /api/v1/operation_markups, 1 hour of one structure (${rows} rows)`;
  const result = await autocannon({
    url: `${server.url}/api/v1/operation_markups?structure_id=${leaf.id}&${window}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { cookie },
  });
  const figures = {
    case: markups,
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
  console.log(figures);
  results.splice(1, 0, figures);
  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'api-load.json'),
    JSON.stringify({ name: 'api-load', date: new Date().toISOString(), runtime: `bun ${Bun.version}`, cpus: cpus().length, cases: results }, null, 2) + '\n',
  );
} finally {
  await server.stop();
}
