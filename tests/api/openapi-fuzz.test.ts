import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../api/test-support/workspace-fixture';
import { createTestApp, testsOnPostgres, type TestApp } from '../../api/test-support/testing';
import { insertCamera, insertVideo } from '../../api/test-support/video-fixtures';
import { seededRandom } from '../../workers/src/random';

/**
 * Malformed requests over every operation of the OpenAPI document, as a hostile tester sends them:
 * hostile ids, numbers and dates, wrong types, broken JSON, missing content types, each as every
 * role. No answer may be a 5xx, and a refused request (4xx) must leave every table as it was.
 * Deterministic (seeded), bounded in count.
 */

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema?: Schema }[];
  body?: { type: string; schema?: Schema };
}

const REQUESTS_PER_OPERATION = 30;

let t: TestApp;
let f: WorkspaceFixture;
let videoId: number;
let operations: Operation[];
let components: Record<string, Schema>;

const HOSTILE_NUMBERS = [0, -1, 0.5, 1e12, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 1.7976931348623157e308];
const HOSTILE_TEXT = [
  '0x10',
  '1e1',
  ' 16',
  '16 ',
  '+1',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '9'.repeat(40),
  '',
  '%00',
  '\u0000',
  '../../etc/passwd',
  'ы'.repeat(300),
  '=HYPERLINK("http://x")',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '2026-02-30',
  '2026-02-30T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '0001-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '2026-11-16T08:00:00',
  '2026-11-16T08:00:00+99:99',
  '[]',
  '{}',
  'null',
  'true',
];

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let depth = 0; current.$ref && depth < 10; depth++) current = components[current.$ref.split('/').pop()] ?? {};
  return current;
}

let bodyDepth = 0;

/** A value that fits the schema where the fixture can supply one (known ids, real instants). */
function plausible(schema: Schema | undefined, name: string, random: () => number): unknown {
  const s = resolve(schema);
  if (s.enum) return s.enum[Math.floor(random() * s.enum.length)];
  const type = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (s.anyOf || s.oneOf) return plausible((s.anyOf ?? s.oneOf)[0], name, random);
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    bodyDepth++;
    for (const [key, child] of Object.entries<Schema>(s.properties ?? {})) out[key] = plausible(child, key, random);
    bodyDepth--;
    return out;
  }
  if (type === 'array') return Array.from({ length: Math.floor(random() * 3) }, () => plausible(s.items, name, random));
  if (name === 'type' && type === 'string') return 'note';
  if (name === 'client_save_id') return `fuzz-save-${Math.floor(random() * 1e9)}`;
  // Legacy calls take ids and durations as strings: give them numbers all the same.
  if (type === 'integer' || type === 'number' || /_id$|^duration$/.test(name)) {
    // A row id in a body: mostly a new row (-1), sometimes an existing-looking one.
    if (name === 'id' && bodyDepth > 0) return random() < 0.7 ? -1 : 1;
    if (/video/.test(name)) return videoId;
    if (/structure|^id$/.test(name)) return f.structureId;
    if (/operation/.test(name)) return f.operationId;
    if (/workplace/.test(name)) return f.workplaceId;
    if (/employee/.test(name)) return f.employeeId;
    if (/version/.test(name)) return 0;
    if (/start/.test(name)) return 1;
    if (/end|duration/.test(name)) return 5;
    return 1;
  }
  if (type === 'boolean') return random() < 0.5;
  if (s.format === 'date-time' || /time$|^at$/.test(name)) return random() < 0.5 ? '2026-11-16T06:00:00Z' : '2026-11-16T07:00:00Z';
  if (/date/.test(name)) return '2026-11-16';
  return `fuzz-${Math.floor(random() * 1e6)}`;
}

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)]!;
}

/** One hostile value: a hostile number, text, a wrong type, or something deeply nested. */
function hostile(random: () => number): unknown {
  const roll = random();
  if (roll < 0.4) return pick(HOSTILE_NUMBERS, random);
  if (roll < 0.8) return pick(HOSTILE_TEXT, random);
  if (roll < 0.88) return null;
  if (roll < 0.94) return [pick(HOSTILE_NUMBERS, random), pick(HOSTILE_TEXT, random)];
  let nested: unknown = 1;
  for (let i = 0; i < 60; i++) nested = { a: [nested] };
  return nested;
}

/** Replaces a few leaves of a plausible value with hostile ones. */
function mutate(value: unknown, random: () => number, rate: number): unknown {
  if (random() < rate) return hostile(random);
  if (Array.isArray(value)) return value.map((item) => mutate(item, random, rate));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) if (random() > 0.1) out[key] = mutate(child, random, rate);
    if (random() < 0.2) out[pick(['__proto__', 'constructor', 'extra', 'id'], random)] = hostile(random);
    return out;
  }
  return value;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function buildRequest(op: Operation, random: () => number): { url: string; init: RequestInit & { cookie?: string } } {
  // Often a clean or nearly clean request, so the deep paths (saves, reports) are reached too.
  const rate = pick([0, 0, 0.05, 0.15, 0.4, 1], random);
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const good = plausible(p.schema, p.name, random);
    const value = mutate(good, random, rate);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(asText(value ?? '')));
    else if (p.in === 'query' && (p.required || random() < 0.8) && value !== undefined) query.set(p.name, asText(value));
  }
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (op.body) {
    const kind = random();
    if (kind < 0.08) body = '{"broken": ';
    else if (kind < 0.14) body = '{"x": NaN, "y": 1e999}';
    else {
      body = JSON.stringify(mutate(plausible(op.body.schema, 'body', random), random, rate));
      if (op.body.type === 'application/json' && random() > 0.1) headers['content-type'] = 'application/json';
      else if (random() < 0.5) headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'video/mp4'], random);
    }
  }
  const who = pick(['admin', 'analyst', 'analyst', 'assessor', 'viewer', 'rival', null] as const, random);
  const search = query.toString();
  return { url: `${path}${search ? `?${search}` : ''}`, init: { method: op.method, headers, body, cookie: who ? f.cookies[who] : undefined } };
}

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
  const { db } = t.deps;
  await db.insertInto('operations').values({ structure_id: f.structureId, name: 'Простой', type: 'idle' }).execute();
  const camera = await insertCamera(db, f.structureId);
  const start = Date.parse('2026-11-16T06:00:00Z');
  videoId = await insertVideo(db, camera, { filename: 'cam1_2026-11-16_06-00-00.mp4', key: 'rec/1/cam1.mp4', start, duration: 100, createdAt: f.now });
  const doc = await (await t.request('/api/openapi.json')).json();
  components = doc.components?.schemas ?? {};
  operations = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      operations.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: type ? { type, schema: content[type].schema } : undefined });
    }
  }
});
afterAll(async () => t.cleanup());

describe('malformed requests over every OpenAPI operation', () => {
  it('never answer 5xx, and a refused request changes no table', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(70);
    const random = seededRandom(20261122);
    const failures: string[] = [];
    let refused = 0;
    const statuses: Record<string, Record<number, number>> = {};
    let before = await tableChecksum();
    for (const op of operations) {
      // Signing out would end the fixture's sessions for every later operation.
      if (op.path === '/api/v1/leave') continue;
      for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
        const { url, init } = buildRequest(op, random);
        const response = await t.request(url, init);
        // A stream that opened (the live board's events) never ends by itself: it is closed, not read to its end.
        const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
        const text = streaming ? (await response.body?.cancel(), '') : await response.text();
        const counts = (statuses[`${op.method} ${op.path}`] ??= {});
        counts[response.status] = (counts[response.status] ?? 0) + 1;
        if (response.status >= 500) failures.push(`${op.method} ${url} → ${response.status} ${text.slice(0, 200)}`);
        const after = await tableChecksum();
        if (response.status >= 400) {
          refused++;
          if (after !== before) failures.push(`${op.method} ${url} → ${response.status} changed the database`);
        }
        before = after;
      }
    }
    if (process.env.NORMA_FUZZ_STATS) console.log(JSON.stringify(statuses, null, 1));
    expect(failures).toEqual([]);
    // The fuzzer must mostly produce refusals, or it is not testing the refusal paths.
    expect(refused).toBeGreaterThan(operations.length * REQUESTS_PER_OPERATION * 0.5);
    // Over 2,000 requests, each followed by a checksum of every table (a network round trip on PostgreSQL).
  });
});

/**
 * Attempt counters of the rate limits: a refused request is counted there on purpose (auth/rate-limits.ts,
 * better-auth's on PostgreSQL, and the sign-in lockout's wrong passwords, auth/lockout.ts).
 */
const ATTEMPT_COUNTERS = new Set(['rate_limits', 'rateLimit', 'sign_in_failures']);

/** SHA-256 over every row of every table but the attempt counters, in rowid order (PostgreSQL: md5 of each table's rows, in one round trip). */
async function tableChecksum(): Promise<string> {
  const { db } = t.deps;
  const hash = createHash('sha256');
  if (testsOnPostgres()) {
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
    const perTable = tables.rows
      .filter(({ name }) => !ATTEMPT_COUNTERS.has(name))
      .map(({ name }) => sql`select ${name} as name, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.table(name)} t`);
    const digests = await sql<{ name: string; digest: string }>`${sql.join(perTable, sql` union all `)}`.execute(db);
    for (const row of digests.rows) hash.update(row.name).update(row.digest);
    return hash.digest('hex');
  }
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  for (const { name } of tables.rows) {
    if (ATTEMPT_COUNTERS.has(name)) continue;
    const rows = await sql`select * from ${sql.table(name)} order by rowid`.execute(db);
    hash.update(name).update(JSON.stringify(rows.rows));
  }
  return hash.digest('hex');
}
