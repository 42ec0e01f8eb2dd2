import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { SNAPSHOT_ROWS, type SnapshotFrv } from './share-snapshot';

/** The built PWA's index.html, as far as this page needs it: the landing page prerendered into #root, with the site header. */
const siteHeader =
  '<header class="site-header"><a href="#/" class="brand">Norma</a><div class="site-user"><a href="#/login" class="button">Вход</a></div></header>';
const indexHtml = `<!doctype html><html lang="ru"><head><title>Norma</title><script type="module" crossorigin src="/assets/index-Ef56.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/shell-Gh78.js"></head><body>\n<div id="root" data-prerendered>${siteHeader}<main><h1>Лендинг</h1><div>…</div></main></div>\n</body></html>`;
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
    // The screen's style sheet is named by the page itself; the app's scripts are not in it: with the
    // first screen written here (<html data-first-screen>), the route-preload script asks for them
    // once that screen is painted (pwa/vite.config.ts).
    expect(html).toContain('<link rel="stylesheet" href="/assets/compute-Cd34.css" crossorigin="anonymous">\n</head>');
    expect(html).toContain('<html lang="ru" data-first-screen>');
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('<script type="module"');
    // The landing page is not in this page; its header is, above the report's first screen.
    expect(html).toContain('<div id="root" data-prerendered></div>\n<script type="application/json" id="norma-shared-report">');
    expect(html).not.toContain('Лендинг');
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

  it("brings the report's first screen as server HTML: the title, the count and the first rows from the first with footage", async () => {
    const key = await newKey();
    const html = await (await t.request(`/demo/${key}`)).text();
    const frv = dataOf(html)!.frv as SnapshotFrv;
    const snapshot = /<div id="norma-server-snapshot">([\s\S]*?)<\/main><\/div>/.exec(html)?.[1] ?? '';
    expect(snapshot.startsWith(siteHeader)).toBe(true);
    expect(snapshot).toContain('<h1>Интерактивный отчёт: Участок &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- &amp; \u2028</h1>');
    expect(snapshot).toContain('<p class="muted">16.11.2026 09:00 — 16.11.2026 10:00</p>');
    expect(snapshot).toContain(`Строк: ${frv.items.length}`);
    // Before #root, which is empty: the app renders there and takes over.
    expect(html.indexOf('<div id="norma-server-snapshot">')).toBeLessThan(html.indexOf('<div id="root" data-prerendered></div>'));
    const first = Math.max(
      0,
      frv.items.findIndex((i) => i.video_segments.length > 0),
    );
    const shown = frv.items.slice(first, first + SNAPSHOT_ROWS);
    expect(shown.length).toBeGreaterThan(0);
    const rowIds = [...snapshot.matchAll(/<tr[^>]* data-item-id="(\d+)">/g)].map((m) => Number(m[1]));
    expect(rowIds).toEqual(shown.map((i) => i.id));
    // The markup of 09:00:01–09:00:03 Moscow, if it is among them: times in the organisation's zone.
    const own = shown.find((i) => i.time_slot.fromm === iso('2026-11-16T09:00:01'));
    if (own) expect(snapshot).toContain(`<td data-label="с">09:00:01</td><td data-label="по">09:00:03</td><td class="num" data-label="длит.">00:00:02</td>`);
    // The player's first file is asked for with the page (its first frame is the largest element), at the app's own address.
    // Without footage in the window, the player's box says so, as the app's does.
    const video = /<video src="\/api\/v1\/video\?video_id=(\d+)&amp;key=([^"]+)"/.exec(snapshot);
    if (frv.items.some((i) => i.video_segments.length > 0)) {
      expect(video?.[2]).toBe(key);
      expect(frv.items[first]!.video_segments.map((s) => s.video_id)).toContain(Number(video?.[1]));
    } else {
      expect(video).toBeNull();
      expect(snapshot).toContain('<div class="no-footage">Записей камер за это окно нет</div>');
    }
    // A picture of the screen: none of the app's test ids, no ids but its own.
    expect(snapshot).not.toContain('data-testid');
    expect(snapshot).not.toMatch(/ id="/);
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
