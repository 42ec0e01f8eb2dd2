/**
 * The public site in Chromium (issue 17; docs/site.md): every marketing page reached from the
 * landing renders its key blocks, no link inside the site is broken and outside links open in a
 * new tab; the contact form waits for the robot check, sends with it (input → spinner → thanks),
 * the request is in the database trimmed, and the same solution sent again is refused.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, watchErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // A cheap robot check: the widget solves it in a moment (production: NORMA_ALTCHA_MAXNUMBER default).
  [server, browser] = await Promise.all([
    startServer({
      NORMA_ALTCHA_MAXNUMBER: '60',
      NORMA_CONTACT_EMAIL: 'sales@norma.local',
      // The installation's outside sites (README «Настройки»); unset, their links are not shown (workspace.e2e).
      NORMA_LINK_TRACKER: 'https://tracker.example.org/',
      NORMA_LINK_FORMWORK: 'https://formwork.example.org/',
      NORMA_LINK_DISTRICT: 'https://district.example.org/',
      NORMA_LINK_ELIBRARY: 'https://elibrary.example.org/author/1',
      NORMA_LINK_SCHOLAR: 'https://scholar.example.org/citations?user=1',
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What each marketing route must show (spec 01 §1, spec 02 «Marketing pages»). */
const KEY_BLOCKS: Record<string, (page: Page) => Promise<void>> = {
  '/': async (page) => {
    await page.getByRole('heading', { name: /Норма рабочего времени/ }).waitFor();
    for (const heading of ['Почему мы', 'Кто мы', 'Платформа', 'Нам доверяют', 'Услуги', 'Буклеты', 'Связаться с нами'])
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    expect(await page.locator('.services li').count()).toBe(13);
    expect(await page.locator('.client-logos img').count()).toBe(6);
    for (const claim of ['21 000+', '12', '>95 %', '50+']) expect(await page.locator('.facts').textContent()).toContain(claim);
    expect(await page.getByRole('link', { name: 'Буклет (PDF, русский)' }).getAttribute('href')).toBe('/site/booklet-ru.pdf');
    expect(await page.getByRole('link', { name: 'Booklet (PDF, English)' }).getAttribute('href')).toBe('/site/booklet-en.pdf');
    await page.getByTestId('contact-form').waitFor();
  },
  '/products': async (page) => {
    const cards = page.getByTestId('product-cards').locator('article');
    await expect.poll(() => cards.count(), RETRY).toBe(7);
    for (let i = 0; i < 7; i++) {
      const card = cards.nth(i);
      expect(await card.locator('img').count()).toBe(1);
      expect((await card.locator('h2').textContent())?.trim()).toBeTruthy();
      expect((await card.locator('p').textContent())?.trim()).toBeTruthy();
      expect((await card.locator('a').textContent())?.trim()).toBe('Перейти');
    }
    const hrefs = await cards.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.slice(0, 4)).toEqual(['#/hr', '#/ai', '#/calculator', '#/evan']);
    expect(hrefs.slice(4)).toEqual(['https://tracker.example.org/', 'https://formwork.example.org/', 'https://district.example.org/']);
  },
  '/hr': async (page) => {
    for (const heading of ['Как это работает', 'Какие задачи решаем', 'Примеры использования']) await page.getByRole('heading', { name: heading }).waitFor();
    expect(await page.locator('.steps li').count()).toBe(5);
    for (const card of ['Узкие специалисты', 'Рабочие', 'Административный персонал']) await page.getByRole('heading', { name: card, exact: true }).waitFor();
    await page
      .getByText(/Бесплатный демо-доступ/)
      .first()
      .waitFor();
  },
  '/ai': async (page) => {
    await page
      .getByText(/моментальные снимки производительности/)
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'Пример отчёта (PDF)' }).getAttribute('href')).toBe('/site/report-example.pdf');
    await page.getByRole('button', { name: 'Заказать демонстрацию' }).waitFor();
  },
  '/evan': async (page) => {
    const metrics = page.getByTestId('evan-metrics').locator('li');
    await expect.poll(() => metrics.count(), RETRY).toBe(8);
    const text = await page.getByTestId('evan-metrics').textContent();
    for (const metric of [
      'Тепловая карта',
      'Маршруты посетителей',
      'Метрики стендов',
      'Время пребывания',
      'Посетители в минуту',
      'популярный стенд',
      'популярный маршрут',
      'Безопасные зоны',
    ])
      expect(text).toContain(metric);
    await page.getByText('Независимые камеры.', { exact: true }).waitFor();
    await page.getByText('Зависимые камеры.', { exact: true }).waitFor();
  },
  '/demo': async (page) => {
    await page.getByText(/на вашем видео или на вашей площадке/).waitFor();
    await carouselShowsSevenPages(page);
  },
  '/report-example': carouselShowsSevenPages,
  '/news': async (page) => {
    const cards = page.getByTestId('news-cards').locator('article');
    await expect.poll(() => cards.count(), RETRY).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < (await cards.count()); i++) {
      const card = cards.nth(i);
      expect(await card.locator('img').count()).toBe(1);
      expect(await card.locator('h2').count()).toBe(1);
      expect(await card.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await card.locator('a').count()).toBe(1);
    }
  },
  '/services': async (page) => {
    await expect.poll(() => page.getByTestId('service-list').locator('li').count(), RETRY).toBe(13);
    await page.getByRole('heading', { name: 'Проекты' }).waitFor();
    await page.getByRole('heading', { name: 'В цифрах' }).waitFor();
  },
  '/legal/privacy': async (page) => void (await page.getByRole('heading', { name: 'Политика обработки персональных данных', level: 1 }).waitFor()),
  '/legal/terms': async (page) => void (await page.getByRole('heading', { name: 'Пользовательское соглашение', level: 1 }).waitFor()),
  '/legal/consent': async (page) => void (await page.getByRole('heading', { name: 'Согласие на обработку персональных данных', level: 1 }).waitFor()),
};

/** The 7 report pages, each a real image (it loads, and it is not the same picture as the others). */
async function carouselShowsSevenPages(page: Page) {
  const image = page.getByTestId('carousel-image');
  await image.waitFor();
  const seen = new Set<string>();
  for (let i = 0; i < 7; i++) {
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), RETRY).toBe(true);
    seen.add((await image.getAttribute('src'))!);
    expect(await page.getByTestId('report-carousel').locator('figcaption').textContent()).toContain(`${i + 1} / 7`);
    await page.getByRole('button', { name: 'Следующая страница' }).click();
  }
  expect(seen.size).toBe(7);
  // After the seventh comes the first again.
  expect(await page.getByTestId('report-carousel').locator('figcaption').textContent()).toContain('1 / 7');
}

type Found = { href: string; target: string | null; rel: string | null; text: string };

describe('public site in Chromium', () => {
  it('every marketing page reached from the landing shows its blocks, a title and a description; no internal link is broken', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const queue = ['/'];
    const visited = new Set<string>();
    /** Routes outside the site (sign-in, calculator): checked to exist, not crawled further. */
    const leaves = new Set<string>();
    const files = new Set<string>();
    const outside: Found[] = [];

    while (queue.length) {
      const route = queue.shift()!;
      if (visited.has(route)) continue;
      visited.add(route);
      await page.goto(`${server.url}/#${route}`);
      await page.locator('.site-footer').waitFor();
      expect(await page.getByRole('heading', { name: 'Страница не найдена' }).count(), route).toBe(0);
      await KEY_BLOCKS[route]?.(page);
      await expect.poll(() => page.title(), RETRY).toMatch(/.+ — Norma$/);
      expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length, route).toBeGreaterThan(40);
      expect(await page.locator('footer').textContent()).toContain('© 2016–2023');

      // Every picture of the page is there (lazy ones too: fetched, not waited for).
      for (const src of await page.locator('main img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')!))) files.add(src);

      const links = await page
        .locator('a[href]')
        .evaluateAll((anchors) =>
          anchors.map((a) => ({ href: a.getAttribute('href')!, target: a.getAttribute('target'), rel: a.getAttribute('rel'), text: a.textContent ?? '' })),
        );
      for (const link of links) {
        if (link.href.startsWith('#/')) {
          const target = link.href.slice(1);
          if (target in KEY_BLOCKS) queue.push(target);
          else leaves.add(target);
        } else if (link.href.startsWith('/')) files.add(link.href);
        else if (/^https?:/.test(link.href)) outside.push(link);
        else if (!/^(mailto|tel):/.test(link.href)) throw new Error(`${route}: unexpected link ${link.href}`);
      }
    }

    // Every marketing route was reached by links from the landing page.
    expect([...visited].sort()).toEqual(Object.keys(KEY_BLOCKS).sort());
    for (const route of leaves) {
      await page.goto(`${server.url}/#${route}`);
      await page.locator('main h1').first().waitFor();
      expect(await page.getByRole('heading', { name: 'Страница не найдена' }).count(), route).toBe(0);
    }
    expect([...leaves]).toEqual(expect.arrayContaining(['/calculator', '/login']));

    // Files: booklets, the PDF example, report slides, pictures — served, and what they say they are.
    expect([...files]).toEqual(expect.arrayContaining(['/site/booklet-ru.pdf', '/site/booklet-en.pdf', '/site/report-example.pdf']));
    for (const file of files) {
      const response = await fetch(new URL(file, server.url));
      expect(response.status, file).toBe(200);
      const type = response.headers.get('content-type') ?? '';
      const body = new Uint8Array(await response.arrayBuffer());
      if (file.endsWith('.pdf')) expect(new TextDecoder().decode(body.slice(0, 5)), file).toBe('%PDF-');
      else if (file.endsWith('.svg')) expect(type, file).toContain('image/svg+xml');
      else expect(type, file).toMatch(/^image\//);
    }

    // Outside links: a new tab, without our window; nothing on the page loads from outside (no hot links).
    expect(outside.length).toBeGreaterThanOrEqual(6);
    for (const link of outside) {
      expect(link.target, link.href).toBe('_blank');
      expect(link.rel ?? '', link.href).toContain('noopener');
    }
    expect(outside.map((l) => l.text)).toEqual(expect.arrayContaining(['Публикации в eLIBRARY.RU', 'Публикации в Google Scholar', 'Трекер задач']));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the contact form waits for the name, the email and the robot check, then sends: spinner, thanks, a trimmed row', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    // Hold the request a moment so the spinner state can be seen; keep its body for the replay.
    let sent: Record<string, string> | null = null;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v3/feedback', async (route) => {
      sent = route.request().postDataJSON();
      await held;
      await route.continue();
    });
    const challenges: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v3/captcha/challenge')) challenges.push(request.url());
    });

    await page.goto(`${server.url}/#/`);
    const submit = page.getByTestId('contact-submit');
    await submit.waitFor();
    expect(challenges).toEqual([]); // the widget's code and challenge come only when the form is near
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Имя *').fill('  Анна Петрова  ');
    await page.getByLabel('Email *').fill('  anna@company.ru ');
    await page.getByLabel('Компания').fill('  ООО «Ромашка»  ');
    await page.getByLabel('Телефон').fill('89123456789');
    expect(await page.getByLabel('Телефон').inputValue()).toBe('+7 (912) 345-67-89');
    // No robot token yet: still disabled, and the spec's prompt says why.
    expect(await submit.isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('robot-prompt').textContent(), RETRY).toBe('Подтвердите, что вы не робот');

    // An emptied name brings its prompt back.
    await page.getByLabel('Имя *').fill('   ');
    await page.getByLabel('Email *').focus();
    await page.getByText('Как к вам обращаться?').waitFor();
    await page.getByLabel('Имя *').fill('  Анна Петрова  ');

    // As a person does: a click on «Я не робот» (the widget draws its own box over the input).
    await page.getByTestId('robot-check').getByText('Я не робот').click();
    await expect.poll(() => submit.isDisabled(), RETRY).toBe(false);
    expect(challenges).toHaveLength(1);
    expect(await page.getByTestId('robot-prompt').count()).toBe(0);

    await submit.click();
    await page.getByTestId('contact-sending').waitFor();
    release();
    await expect.poll(() => page.getByTestId('contact-result').textContent(), RETRY).toBe('Спасибо! Наш специалист скоро свяжется с вами');

    // What went out: trimmed values, the unfilled comment not sent at all.
    expect(sent).toMatchObject({ name: 'Анна Петрова', email: 'anna@company.ru', company: 'ООО «Ромашка»', phone_number: '+7 (912) 345-67-89' });
    expect(sent).not.toHaveProperty('comment');
    const db = new Database(join(server.dataDir, 'norma.sqlite'), { readonly: true });
    try {
      const rows = db.query('SELECT name, email, company, phone_number, comment FROM feedback').all();
      expect(rows).toEqual([{ name: 'Анна Петрова', email: 'anna@company.ru', company: 'ООО «Ромашка»', phone_number: '+79123456789', comment: null }]);
    } finally {
      db.close();
    }

    // The same solution once more, straight to the API: refused, nothing stored.
    const replay = await fetch(`${server.url}/api/v3/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ ...sent!, name: 'Повтор' }),
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: { code: 'captcha_failed', message: expect.stringMatching(/уже использована/) } });
    const after = new Database(join(server.dataDir, 'norma.sqlite'), { readonly: true });
    try {
      expect(after.query('SELECT count(*) AS n FROM feedback').get()).toEqual({ n: 1 });
    } finally {
      after.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a server failure shows the failure text with the contact mailbox', async () => {
    const page = await browser.newPage();
    watchErrors(page, { allowHttpErrors: true });
    await page.route('**/api/v3/feedback', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"x","message":"down"}}' }),
    );
    await page.goto(`${server.url}/#/`);
    await page.getByLabel('Имя *').fill('Пётр');
    await page.getByLabel('Email *').fill('petr@example.org');
    await page.getByTestId('robot-check').getByText('Я не робот').click();
    const submit = page.getByTestId('contact-submit');
    await expect.poll(() => submit.isDisabled(), RETRY).toBe(false);
    await submit.click();
    await expect.poll(() => page.getByTestId('contact-result').textContent(), RETRY).toMatch(/проблемы.*sales@norma\.local/);
    await page.close();
  });
});
