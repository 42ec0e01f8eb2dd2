import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/** The built PWA's index.html, as far as this page needs it. */
const indexHtml = '<!doctype html><html lang="ru"><head><title>Norma</title></head><body><div id="root"></div></body></html>';
const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();
const window = { from: iso('2026-11-16T09:00:00'), to: iso('2026-11-16T10:00:00') };
/** A structure name that would end a script element and run code if the data were not escaped. */
const hostileName = 'Участок </script><script>alert(1)</script> <!-- & \u2028';

let t: TestApp;
let w: VideoWorld;
let pwaDir: string;
beforeAll(async () => {
  pwaDir = mkdtempSync(join(tmpdir(), 'norma-pwa-'));
  writeFileSync(join(pwaDir, 'index.html'), indexHtml);
  // The build's list of the screen's chunks (pwa/vite.config.ts, routePreload).
  mkdirSync(join(pwaDir, '.vite'));
  const routes = [{ hash: '#/demo/', files: ['/assets/InteractiveScreen-Ab12.js'], styles: ['/assets/compute-Cd34.css'], api: null, report: null }];
  writeFileSync(join(pwaDir, '.vite', 'routes.json'), JSON.stringify(routes));
  t = await createTestApp({ pwaDir });
  w = await videoWorld(t);
  await t.deps.db.updateTable('structures').set({ name: hostileName }).where('id', '=', w.structureId).execute();
  await t.deps.db
    .insertInto('markups')
    .values({
      structure_id: w.structureId,
      operation_id: w.operationIds.main,
      workplace_id: w.workplaceIds[0]!,
      employee_id: w.employeeId,
      start_time: at('2026-11-16T09:00:01'),
      end_time: at('2026-11-16T09:00:03'),
      comment: null,
      video_id: null,
      created_at: 0,
      updated_at: 0,
    })
    .execute();
});
afterAll(async () => {
  await t.cleanup();
  rmSync(pwaDir, { recursive: true, force: true });
});

const newKey = async (body: Record<string, unknown> = { structure_id: w.structureId, from_time: window.from, to_time: window.to }) => {
  const response = await t.request('/api/v1/generate_hash', { method: 'POST', cookie: w.cookies.viewer, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { hash: string }).hash;
};
/** The page's answers to the app's start reads (pwa/src/api/page-answers.ts), parsed; null when the page has none. */
const answersOf = (html: string) => {
  const match = /<script type="application\/json" id="norma-page-answers">([^<]*)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : null;
};
/** The page's data block, parsed; null when the page has none. */
const dataOf = (html: string) => {
  const match = /<script type="application\/json" id="norma-shared-report">([^<]*)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as { key: string; share: unknown; frv: unknown }) : null;
};

describe('GET /demo/{key}: the shared report page carries its report', () => {
  it('puts what resolve_hash and frv give for a valid key into the page, escaped, never stored by a cache', async () => {
    const key = await newKey();
    const page = await t.request(`/demo/${key}`, { headers: { 'accept-encoding': 'identity' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // The page keeps the policy with no inline scripts: the data block is not a script that runs.
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
    const html = await page.text();
    // The screen's chunks and style sheet load beside the entry chunk, named by the page itself.
    expect(html).toContain('<link rel="modulepreload" href="/assets/InteractiveScreen-Ab12.js" crossorigin="anonymous">\n');
    expect(html).toContain('<link rel="stylesheet" href="/assets/compute-Cd34.css" crossorigin="anonymous">\n</head>');
    // …and says so, so that the route-preload script does not link them a second time.
    expect(html).toContain('<html data-screen-links lang="ru">');
    expect(html).toContain('<div id="root"></div><script type="application/json" id="norma-shared-report">');
    expect(html).toContain('</script>\n<script type="application/json" id="norma-page-answers">');
    expect(html).not.toContain('</script><script>alert');
    expect(html).not.toContain('<!-- &');
    const data = dataOf(html);
    const share = await (await t.request(`/api/v1/resolve_hash/${key}`)).json();
    const query = `structure_id=${w.structureId}&from_time=${encodeURIComponent(window.from)}&to_time=${encodeURIComponent(window.to)}&key=${key}`;
    const frv = (await (await t.request(`/api/v2/frv?${query}`)).json()) as { items: unknown[] };
    expect(frv.items.length).toBeGreaterThan(0);
    expect(data).toEqual({ key, share, frv });
    expect((data!.share as { structure_name: string }).structure_name).toBe(hostileName);
  });

  it('gives each key its own window only', async () => {
    const early = await newKey({ structure_id: w.structureId, from_time: window.from, to_time: iso('2026-11-16T09:30:00') });
    const other = await newKey({ structure_id: w.otherStructureId, from_time: window.from, to_time: window.to });
    const first = dataOf(await (await t.request(`/demo/${early}`)).text())!;
    const second = dataOf(await (await t.request(`/demo/${other}`)).text())!;
    expect(first.share).toMatchObject({ structure_id: w.structureId, to_time: iso('2026-11-16T09:30:00') });
    expect(second.share).toMatchObject({ structure_id: w.otherStructureId, to_time: window.to });
    expect(second.key).toBe(other);
  });

  it("answers the app's start reads in the page too: the installation, whether the key's report is the demo's, and who is signed in by the visitor's own cookie", async () => {
    const key = await newKey();
    const instance = await (await t.request('/api/v1/instance')).json();
    // The header's read for its «демо-данные» badge: this key's organisation is not the demo.
    const badge = `/api/v1/instance?key=${key}`;
    const ofKey = await (await t.request(badge)).json();
    expect(ofKey).toMatchObject({ demo: false });
    // A guest: whoami's own «not signed in» answer.
    const guest = answersOf(await (await t.request(`/demo/${key}`)).text());
    expect(guest).toEqual({ '/api/v1/instance': instance, [badge]: ofKey, '/api/v1/whoami': await (await t.request('/api/v1/whoami')).json() });
    expect(guest!['/api/v1/whoami']).toMatchObject({ error: { code: 'unauthorized' } });
    // A signed-in analyst who opens the link: their own whoami, nobody else's.
    const whoami = (await (await t.request('/api/v1/whoami', { cookie: w.cookies.viewer })).json()) as { login: string; role: string };
    expect(whoami).toMatchObject({ role: 'viewer' });
    const signedIn = answersOf(await (await t.request(`/demo/${key}`, { cookie: w.cookies.viewer })).text());
    expect(signedIn).toEqual({ '/api/v1/instance': instance, [badge]: ofKey, '/api/v1/whoami': whoami });
  });

  it('puts nothing into the page for a revoked, unknown or malformed key: the page is index.html as it is', async () => {
    const revoked = await newKey();
    expect((await t.request(`/api/v1/share/${revoked}`, { method: 'DELETE', cookie: w.cookies.viewer })).status).toBe(200);
    for (const key of [revoked, 'A'.repeat(32), 'short', '%3Cscript%3E']) {
      const page = await t.request(`/demo/${key}`);
      expect(page.status, key).toBe(200);
      expect(page.headers.get('cache-control'), key).toBe('no-store');
      expect(await page.text(), key).toBe(indexHtml);
    }
  });
});
