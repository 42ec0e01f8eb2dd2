import { chromium, type Browser, type Page } from 'playwright-core';
import { STATE_WAIT_MS, untilState } from './wait';

/**
 * Options for `expect.poll` over what a page shows: the page may still be rendering when the test
 * reads it, so a read is retried until it matches or STATE_WAIT_MS has passed.
 */
export const RETRY = untilState();

/**
 * `softwareWebGpu`: a WebGPU adapter on the CPU (Chromium's SwiftShader; no GPU is used or needed),
 * so the WebGPU path of browser inference runs on any machine (docs/vision.md).
 */
export async function launchBrowser({ softwareWebGpu = false } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    // Debian's Chromium, never a downloaded browser.
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(softwareWebGpu ? ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] : []),
    ],
  });
  // Every page's waits (locators, navigation) get the same bound as the polls; `browser.newPage()`
  // goes through `newContext` too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STATE_WAIT_MS);
    return context;
  };
  return browser;
}

/**
 * Collects console errors and uncaught page errors, so a test can assert there were none.
 * `allowHttpErrors`: a test that provokes a refused call expects Chromium's "Failed to load
 * resource" line for it; everything else still counts.
 */
export function watchErrors(page: Page, { allowHttpErrors = false } = {}): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (allowHttpErrors && message.text().startsWith('Failed to load resource')) return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** A `cookie` header (as the API's sign-in sets it) as cookies for a browser context at `url`: signed in without a sign-in. */
export function cookiesFor(url: string, cookieHeader: string) {
  return cookieHeader.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
}

/** Signs in through the login screen, as a person would, and waits for the projects page. */
export async function signInThroughPage(page: Page, baseUrl: string, login: string, password = 'norma-demo') {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByLabel('Логин').fill(login);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL(/#\/projects$/);
}

/** Collects the URLs of requests a page makes to anywhere but `baseUrl` (data: and blob: aside): nothing may load from the internet. */
export function watchForeignRequests(page: Page, baseUrl: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${baseUrl}/`) && !/^(data|blob):/.test(url)) foreign.push(url);
  });
  return foreign;
}
