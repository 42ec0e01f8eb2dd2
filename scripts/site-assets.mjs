// `bun scripts/site-assets.mjs` (after `npm run build`): makes the public site's report material
// from Norma itself on the demo data (docs/site.md) and writes it to pwa/public/site/:
// - report-1.webp … report-7.webp: the 7 slides of the report-example carousel, screenshots of the
//   statement, block and interactive report screens (1200×750, white, fitted);
// - report-example.pdf: the statement report's own PDF export (the screen's «PDF» route);
// - booklet-ru.pdf, booklet-en.pdf: two-page booklets printed by Chromium around those slides.
// Run it again when the report screens change; the files are committed (nothing is made at start-up).
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchBrowser, signInThroughPage } from '../tests/support/browser.ts';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'pwa', 'public', 'site');
mkdirSync(out, { recursive: true });
const work = join(tmpdir(), `norma-site-assets-${process.pid}`);
mkdirSync(work, { recursive: true });

/** The demo's first day (Moscow), as tests/e2e/reports.e2e.test.ts uses it. */
const shift = { from: '2026-11-16T05:00:00.000Z', to: '2026-11-16T14:00:00.000Z' };
const day = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' };
const recorded = { from: '2026-11-16T05:59:00.000Z', to: '2026-11-16T06:02:00.000Z' };
const enc = encodeURIComponent;

/** In the carousel's order (pwa/src/screens/site/ReportCarousel.tsx, SLIDE_CAPTIONS). */
const SLIDES = [
  { route: 'statement', testId: 'table-1', ru: 'Ведомость: фотография рабочего дня', en: 'Statement: work-day photograph' },
  { route: 'statement', testId: 'table-2', ru: 'Хронометраж операций', en: 'Operation timing' },
  { route: 'statement', testId: 'fluctuation-chart', ru: 'Устойчивость хронометражных рядов', en: 'Stability of timing series' },
  { route: 'statement', testId: 'pie-observed', ru: 'Структура рабочего времени', en: 'Structure of working time' },
  { route: 'statement', testId: 'pareto-chart', ru: 'Парето потерь времени', en: 'Pareto of time losses' },
  { route: 'block', testId: null, ru: 'Блочный отчёт по участку', en: 'Block report of a section' },
  { route: 'interactive', testId: null, ru: 'Интерактивный отчёт: таблица по видео', en: 'Interactive report: table over video' },
];

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '20' });
const browser = await launchBrowser();
try {
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const get = async (path) => {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const structures = await get('/api/v2/get_all_structures');
  const assembly = structures.find((s) => s.name === 'Участок сборки редукторов').id;
  const packing = structures.find((s) => s.name === 'Участок упаковки').id;
  const dates = await get(`/api/v1/report/dates?structure_id=${assembly}`);
  const employee = dates.employees['2026-11-16'][0];
  const routes = {
    statement: `/statement/${assembly}/${employee}/${enc(shift.from)}/${enc(shift.to)}`,
    block: `/report/${assembly}/${day.from}/${enc(day.to)}`,
    interactive: `/interactive/${packing}/${recorded.from}/${recorded.to}`,
  };

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, acceptDownloads: true, locale: 'ru-RU' });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'analyst');

  /** A screenshot fitted into a white 1200×750 WebP (the browser's own encoder). */
  const toSlide = (png) =>
    page.evaluate(
      async (dataUrl) => {
        const image = new Image();
        image.src = dataUrl;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = 1200;
        canvas.height = 750;
        const g = canvas.getContext('2d');
        g.fillStyle = '#ffffff';
        g.fillRect(0, 0, 1200, 750);
        const scale = Math.min(1160 / image.width, 710 / image.height, 1.5);
        const w = image.width * scale;
        const h = image.height * scale;
        g.drawImage(image, (1200 - w) / 2, (750 - h) / 2, w, h);
        return canvas.toDataURL('image/webp', 0.82);
      },
      `data:image/png;base64,${png.toString('base64')}`,
    );

  let current = null;
  for (const [i, slide] of SLIDES.entries()) {
    if (current !== slide.route) {
      await page.goto(`${server.url}/#${routes[slide.route]}`);
      current = slide.route;
    }
    let png;
    if (slide.testId) {
      const element = page.getByTestId(slide.testId).first();
      await element.waitFor({ timeout: 60_000 });
      await element.scrollIntoViewIfNeeded();
      await page.waitForTimeout(400); // charts finish their first layout
      png = await element.screenshot();
    } else {
      await page.locator('main h1, main h2').first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(800);
      png = await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 800 } });
    }
    const webp = Buffer.from((await toSlide(png)).split(',')[1], 'base64');
    writeFileSync(join(out, `report-${i + 1}.webp`), webp);
    console.log(`report-${i + 1}.webp ${Math.round(webp.length / 1024)} KB — ${slide.ru}`);
  }

  // The statement report's own PDF export.
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await page.goto(`${server.url}/#${routes.statement}/pdf`);
  await (await download).saveAs(join(out, 'report-example.pdf'));
  console.log(`report-example.pdf ${Math.round(statSync(join(out, 'report-example.pdf')).size / 1024)} KB`);

  // Booklets: two A4 pages around the slides, printed by Chromium.
  // As JPEG: Chromium's PDF keeps a JPEG as it is, while other images go in re-encoded and much larger.
  const slideData = [];
  for (const [i] of SLIDES.entries()) {
    const webp = `data:image/webp;base64,${readFileSync(join(out, `report-${i + 1}.webp`)).toString('base64')}`;
    slideData.push(
      await page.evaluate(async (dataUrl) => {
        const image = new Image();
        image.src = dataUrl;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        canvas.getContext('2d').drawImage(image, 0, 0);
        return canvas.toDataURL('image/jpeg', 0.8);
      }, webp),
    );
  }
  for (const lang of ['ru', 'en']) {
    const booklet = await context.newPage();
    await booklet.setContent(bookletHtml(lang, slideData), { waitUntil: 'load' });
    const file = join(out, `booklet-${lang}.pdf`);
    await booklet.pdf({ path: file, format: 'A4', printBackground: true, margin: { top: '14mm', bottom: '14mm', left: '14mm', right: '14mm' } });
    console.log(`booklet-${lang}.pdf ${Math.round(statSync(file).size / 1024)} KB`);
    await booklet.close();
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

function bookletHtml(lang, slides) {
  const t =
    lang === 'ru'
      ? {
          title: 'Norma — анализ рабочего времени по видео',
          lead: 'Фотография рабочего дня, хронометраж, нормирование труда и HR-аналитика по записям камер на рабочих местах.',
          facts: [
            '21 000+ сотрудников в исследованиях',
            '12 отраслей',
            'точность анализа выше 95 %',
            '50+ научных публикаций',
            'первые результаты — в течение квартала',
          ],
          effects: [
            '15 % экономии на оптимизации трудовых ресурсов',
            'эффективность HR-специалистов выше на 75 %',
            'до 80 % экономии времени с трекером задач',
            'проектирование опалубки на 30 % быстрее',
          ],
          pages: 'Страницы настоящего отчёта Norma на демонстрационных данных',
          footer: '© 2016–2023 Norma',
          caption: (i) => SLIDES[i].ru,
        }
      : {
          title: 'Norma — video-based work-time analysis',
          lead: 'Work-day photography, operation timing, labour norming and HR analytics from workplace camera recordings.',
          facts: ['21,000+ employees studied', '12 industries', 'accuracy above 95%', '50+ scientific publications', 'first results within a quarter'],
          effects: [
            '15% saving on labour-resource optimisation',
            '75% higher HR-staff efficiency',
            'up to 80% time saving with the task tracker',
            '30% faster formwork design',
          ],
          pages: 'Pages of a real Norma report on the demo data',
          footer: '© 2016–2023 Norma',
          caption: (i) => SLIDES[i].en,
        };
  const figures = slides
    .slice(0, 6)
    .map((src, i) => `<figure><img src="${src}"><figcaption>${t.caption(i)}</figcaption></figure>`)
    .join('');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>
    body { font-family: 'Montserrat', 'DejaVu Sans', sans-serif; color: #1d2430; margin: 0; }
    h1 { color: #1f3a5f; font-size: 26px; margin: 0 0 8px; }
    .hero { background: linear-gradient(120deg, #1f3a5f, #2f5d8c); color: #fff; padding: 22px; border-radius: 12px; }
    .hero h1 { color: #fff; }
    ul { padding-left: 18px; } li { margin: 4px 0; }
    .cols { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
    figure { margin: 0; break-inside: avoid; } img { width: 100%; border: 1px solid #d9dee5; border-radius: 6px; }
    figcaption { font-size: 11px; color: #5f6b7a; margin-top: 3px; }
    .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; break-before: page; }
    footer { margin-top: 14px; font-size: 11px; color: #5f6b7a; }
  </style></head><body>
    <div class="hero"><h1>${t.title}</h1><p>${t.lead}</p></div>
    <div class="cols"><ul>${t.facts.map((f) => `<li>${f}</li>`).join('')}</ul><ul>${t.effects.map((f) => `<li>${f}</li>`).join('')}</ul></div>
    <figure><img src="${slides[6]}"><figcaption>${t.caption(6)}</figcaption></figure>
    <div class="grid">${figures}</div>
    <p>${t.pages}</p>
    <footer>${t.footer}</footer>
  </body></html>`;
}
