/**
 * Files the public pages link to. Outside sites (the tracker, the formwork plugin, the
 * micro-district tool, the publication profiles) are the installation's own: the server names them
 * (NORMA_LINK_*, state/instance.ts) and a site it does not name has no link. The booklets, the PDF
 * example and the report slides are files of the build, made from Norma's own report on the demo
 * data by scripts/site-assets.mjs (docs/site.md).
 */

export const ASSETS = {
  bookletRu: '/site/booklet-ru.pdf',
  bookletEn: '/site/booklet-en.pdf',
  reportPdf: '/site/report-example.pdf',
  /** The 7 report pages of the carousel (spec 01 §9: «PDF example carousel: 7 slides»). */
  slides: [1, 2, 3, 4, 5, 6, 7].map((n) => `/site/report-${n}.webp`),
} as const;

/** An illustration of the site (our own SVG files under /site/img). */
export const img = (name: string) => `/site/img/${name}.svg`;
