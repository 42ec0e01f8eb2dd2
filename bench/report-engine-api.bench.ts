/**
 * Report calls end to end: the real server (`bun api/src/main.ts`) with the demo data, one
 * request at a time over loopback (session check, SQL, engine, JSON), median and p95 of the
 * wall time seen by the client.
 *   node_modules/.bin/bun bench/report-engine-api.bench.ts
 * Writes bench/results/report-engine-api.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';

const WARMUP = 10;
const REQUESTS = 100;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (x: number) => Math.round(x * 100) / 100;

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '1000' });
try {
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie } });
  const structures = (await (await get('/api/v2/get_all_structures')).json()) as { id: number; name: string }[];
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const employees = (await (await get(`/api/v1/employees?structure_id=${leaf.id}`)).json()) as { id: number; name: string }[];
  // 2026-11-16, a whole local (Moscow) day.
  const day = 'from_time=2026-11-15T21:00:00Z&to_time=2026-11-16T21:00:00Z';
  const cases = [
    { case: 'GET /api/v1/report, one demo employee-day', path: `/api/v1/report?structure_id=${leaf.id}&employee_id=${employees[0]!.id}&${day}` },
    { case: 'GET /api/v2/report, one demo structure-day (3 employees)', path: `/api/v2/report?structure_id=${leaf.id}&${day}` },
    { case: 'GET /api/v2/frv, one demo structure-day', path: `/api/v2/frv?structure_id=${leaf.id}&${day}` },
  ];
  const results = [];
  for (const item of cases) {
    let bytes = 0;
    const once = async () => {
      const t0 = performance.now();
      const response = await get(item.path);
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${item.path}: ${response.status} ${new TextDecoder().decode(body)}`);
      bytes = body.byteLength;
      return performance.now() - t0;
    };
    for (let i = 0; i < WARMUP; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await once());
    const figures = {
      case: item.case,
      requests: REQUESTS,
      p50_ms: round(percentile(times, 50)),
      p95_ms: round(percentile(times, 95)),
      response_kb: round(bytes / 1024),
    };
    console.log(JSON.stringify(figures));
    results.push(figures);
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'report-engine-api.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ name: 'report-engine-api', date: new Date().toISOString(), runtime: `bun ${Bun.version}`, cases: results }, null, 2) + '\n',
  );
  console.log(`written ${out}`);
} finally {
  await server.stop();
}
