/**
 * Addresses the public pages link to. Outside sites open in a new tab (ExternalLink). The
 * booklets, the PDF example and the report slides are files of the build, made from Norma's own
 * report on the demo data by scripts/site-assets.mjs (docs/site.md).
 */
export const EXTERNAL = {
  /**
   * Our other products' own sites: the tracker (also in the header, spec 01 §2), the formwork plugin
   * and the micro-district tool. Addresses of the reserved .example zone until set (docs/site.md).
   */
  tracker: 'https://tracker.norma.example/',
  formwork: 'https://formwork.norma.example/',
  district: 'https://district.norma.example/',
  /** The two scientific-publication profiles of the footer (spec 01 §1). */
  elibrary: 'https://elibrary.ru/',
  scholar: 'https://scholar.google.com/',
} as const;

export const ASSETS = {
  bookletRu: '/site/booklet-ru.pdf',
  bookletEn: '/site/booklet-en.pdf',
  reportPdf: '/site/report-example.pdf',
  /** The 7 report pages of the carousel (spec 01 §9: «PDF example carousel: 7 slides»). */
  slides: [1, 2, 3, 4, 5, 6, 7].map((n) => `/site/report-${n}.webp`),
} as const;

/** An illustration of the site (our own SVG files under /site/img). */
export const img = (name: string) => `/site/img/${name}.svg`;
