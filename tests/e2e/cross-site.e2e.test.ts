import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage, watchErrors } from '../support/browser';
import type { RunningServer } from '../support/server';
import { startDemo, type Demo } from '../support/demo';

/**
 * Forged requests from other pages, in a real browser. Norma runs at http://localhost:P; the
 * attacker's server answers on another port and is opened two ways: as http://127.0.0.1:Q, which
 * is another site (Chromium sends SameSite=Lax cookies only with top-level navigations there),
 * and as http://localhost:Q, the same site on another port (every Lax cookie goes along).
 */
let demo: Demo;
let server: RunningServer;
let browser: Browser;
let attacker: ReturnType<typeof Bun.serve>;
let analystCookie: string;

const ATTACKER_PASSWORD = 'mallory-pass';

const api = async <T>(path: string, cookie = analystCookie): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

/** The attacker's pages: a top-level navigation to a Norma URL, and an auto-submitted form POST. */
function attackerPage(url: URL, norma: string): Response {
  const html = (body: string) => new Response(`<!doctype html><html><body>${body}</body></html>`, { headers: { 'content-type': 'text/html' } });
  const target = `${norma}${url.searchParams.get('path') ?? '/'}`;
  if (url.pathname === '/navigate') return html(`<script>location.href = ${JSON.stringify(target)};</script>`);
  if (url.pathname === '/post') {
    return html(`<form method="post" action="${target}"></form><script>document.forms[0].submit();</script>`);
  }
  return new Response('not found', { status: 404 });
}

async function victim(): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'assessor');
  await page.close();
  return context;
}

/** Who the browser context is signed in as, asked from a Norma page like the PWA asks. */
async function signedInAs(context: BrowserContext): Promise<string | null> {
  const page = await context.newPage();
  await page.goto(`${server.url}/#/`);
  const me = await page.evaluate(async () => (await fetch('/api/v1/whoami', { credentials: 'same-origin' })).json());
  await page.close();
  return (me as { login?: string }).login ?? null;
}

/** Opens an attacker page and waits until the browser has landed on the Norma URL it sent it to. */
async function visit(context: BrowserContext, attackerUrl: string, landing: RegExp): Promise<{ status: number; body: string }> {
  const page = await context.newPage();
  const landed = page.waitForResponse((response) => landing.test(response.url()));
  await page.goto(attackerUrl);
  const response = await landed;
  const result = { status: response.status(), body: await response.text() };
  await page.close();
  return result;
}

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, cookie: analystCookie } = demo);
  // The attacker has an account of their own (registration is open); a script sends no Origin.
  const registered = await fetch(`${server.url}/api/v2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'mallory', password: ATTACKER_PASSWORD, first_name: 'Мэллори', last_name: 'Злоумышленник' }),
  });
  expect(registered.status).toBe(200);
  attacker = Bun.serve({ port: 0, fetch: (request) => attackerPage(new URL(request.url), server.url) });
});
afterAll(async () => {
  await attacker?.stop(true);
  await demo?.stop();
});

describe('forged requests from other pages, in Chromium', () => {
  it('a cross-site page cannot sign the victim into the attacker’s account with the legacy GET /api/v1/login', async () => {
    const context = await victim();
    expect(await signedInAs(context)).toBe('assessor');
    const path = `/api/v1/login?email=mallory&password=${ATTACKER_PASSWORD}`;
    const landed = await visit(context, `http://127.0.0.1:${attacker.port}/navigate?path=${encodeURIComponent(path)}`, /\/api\/v1\/login\?/);
    expect(landed.status).toBe(403);
    expect(JSON.parse(landed.body).error.code).toBe('cross_site_refused');
    expect(await signedInAs(context)).toBe('assessor');
    await context.close();
  });

  it('a cross-site page cannot sign the victim out with the legacy GET /api/v1/leave', async () => {
    const context = await victim();
    const landed = await visit(context, `http://127.0.0.1:${attacker.port}/navigate?path=${encodeURIComponent('/api/v1/leave')}`, /\/api\/v1\/leave$/);
    expect(landed.status).toBe(403);
    expect(await signedInAs(context)).toBe('assessor');
    await context.close();
  });

  it('a same-site page on another port cannot finish the victim’s task with a form POST', async () => {
    const packingId = demo.packingId;
    const unfinished = await api<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${packingId}&option=unfinished&offset=0&limit=1`);
    const videoId = unfinished.elements[0]!.video.id;

    const context = await victim();
    const landed = await visit(context, `http://localhost:${attacker.port}/post?path=${encodeURIComponent(`/api/v1/task/${videoId}/finish`)}`, /\/finish$/);
    expect(landed.status).toBe(403);
    expect(await signedInAs(context)).toBe('assessor');
    const finished = await api<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${packingId}&option=finished&offset=0&limit=100`);
    expect(finished.elements.map((task) => task.video.id)).not.toContain(videoId);
    await context.close();
  });
});

describe('Content-Security-Policy in Chromium', () => {
  it('the API docs page renders under the policy, its start-up script being a file', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const response = await page.goto(`${server.url}/api/docs`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByText('Norma API').first().waitFor();
    await page.getByText('Вход и регистрация').first().waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
