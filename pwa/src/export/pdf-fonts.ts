/**
 * The faces of a PDF and which one draws each character. jsPDF has no font fallback: a character
 * missing from the current font is dropped without a word. Montserrat (Latin, Cyrillic, ≤ ≥ × − № « » …)
 * stays the face of everything it has; what it lacks (Greek «Σ», ⌈ ⌉ and other signs) is drawn in
 * DejaVu Sans, cut at build time to the blocks a report prints that Montserrat lacks (pwa/vite.config.ts,
 * pdfFallbackFont), loaded only for a PDF that needs it. Text is cut into runs by
 * coverage, so a line keeps Montserrat around a «Σ».
 */
import type { jsPDF as JsPdf } from 'jspdf';

export const FONT = 'Montserrat';
export const FALLBACK = 'DejaVuSans';

export type FaceStyle = 'normal' | 'bold';

export interface Run {
  text: string;
  font: string;
}

type CodeMap = Record<number, number | undefined>;

const base64 = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/** The characters (UTF-16 code units, as jsPDF reads them) a face has a glyph for. */
function codeMap(doc: JsPdf, family: string, style: FaceStyle): CodeMap {
  doc.setFont(family, style);
  return (doc.getFont().metadata as { cmap: { unicode: { codeMap: CodeMap } } }).cmap.unicode.codeMap;
}

let pageFaces: Promise<void> | null = null;

/**
 * svg2pdf places the runs of a chart text one after another by the widths the browser measures for
 * their family: the page gets the fallback face under the same name (from the bytes, not a URL, so
 * the Content-Security-Policy's font sources are not involved), once.
 */
function measurableInPage(regular: string, bold: string): Promise<void> {
  const bytes = (dataUrl: string) => Uint8Array.from(atob(base64(dataUrl)), (c) => c.charCodeAt(0));
  pageFaces ??= Promise.all(
    [new FontFace(FALLBACK, bytes(regular), { weight: '400' }), new FontFace(FALLBACK, bytes(bold), { weight: '700' })].map(async (face) =>
      document.fonts.add(await face.load()),
    ),
  ).then(() => undefined);
  return pageFaces;
}

/** The PDF's faces, and the run-by-run drawing that picks the face with the glyph. */
export class Faces {
  private constructor(
    private readonly doc: JsPdf,
    private readonly primary: Record<FaceStyle, CodeMap>,
    private readonly fallback: Record<FaceStyle, CodeMap> | null,
  ) {}

  /**
   * Embeds Montserrat, and DejaVu Sans too when `text` (everything the PDF will print) has a
   * character Montserrat lacks.
   */
  static async load(doc: JsPdf, text: string): Promise<Faces> {
    const [{ default: regular }, { default: bold }] = await Promise.all([
      import('@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf?inline'),
      import('@expo-google-fonts/montserrat/700Bold/Montserrat_700Bold.ttf?inline'),
    ]);
    doc.addFileToVFS('Montserrat-Regular.ttf', base64(regular));
    doc.addFont('Montserrat-Regular.ttf', FONT, 'normal');
    doc.addFileToVFS('Montserrat-Bold.ttf', base64(bold));
    doc.addFont('Montserrat-Bold.ttf', FONT, 'bold');
    const primary = { normal: codeMap(doc, FONT, 'normal'), bold: codeMap(doc, FONT, 'bold') };
    let fallback: Record<FaceStyle, CodeMap> | null = null;
    if ([...text].some((ch) => !primary.normal[ch.charCodeAt(0)] || !primary.bold[ch.charCodeAt(0)])) {
      const [{ default: fallbackRegular }, { default: fallbackBold }] = await Promise.all([
        import('virtual:pdf-fallback-font/regular'),
        import('virtual:pdf-fallback-font/bold'),
      ]);
      doc.addFileToVFS('DejaVuSans.ttf', base64(fallbackRegular));
      doc.addFont('DejaVuSans.ttf', FALLBACK, 'normal');
      doc.addFileToVFS('DejaVuSans-Bold.ttf', base64(fallbackBold));
      doc.addFont('DejaVuSans-Bold.ttf', FALLBACK, 'bold');
      fallback = { normal: codeMap(doc, FALLBACK, 'normal'), bold: codeMap(doc, FALLBACK, 'bold') };
      await measurableInPage(fallbackRegular, fallbackBold);
    }
    doc.setFont(FONT, 'normal');
    return new Faces(doc, primary, fallback);
  }

  /** The face that draws `ch`: Montserrat where it has the glyph, else DejaVu Sans where that has it. */
  faceOf(ch: string, style: FaceStyle): string {
    const code = ch.charCodeAt(0);
    if (this.primary[style][code] || !this.fallback?.[style][code]) return FONT;
    return FALLBACK;
  }

  /** `text` cut into runs of one face each. */
  runs(text: string, style: FaceStyle): Run[] {
    const runs: Run[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const font = this.faceOf(ch, style);
      const last = runs.at(-1);
      if (last && last.font === font) last.text += ch;
      else runs.push({ text: ch, font });
    }
    return runs;
  }

  /** Whether any character of `text` is drawn in the fallback face. */
  needsFallback(text: string, style: FaceStyle): boolean {
    return this.runs(text, style).some((run) => run.font !== FONT);
  }

  /** The width of `text` at the current font size, each run in its face. */
  width(text: string, style: FaceStyle): number {
    let width = 0;
    for (const run of this.runs(text, style)) {
      this.doc.setFont(run.font, style);
      width += this.doc.getTextWidth(run.text);
    }
    this.doc.setFont(FONT, style);
    return width;
  }

  /** Draws one line of `text` from (x, y) on its baseline, each run in its face; ends in Montserrat. */
  draw(text: string, x: number, y: number, style: FaceStyle) {
    let left = x;
    for (const run of this.runs(text, style)) {
      this.doc.setFont(run.font, style);
      this.doc.text(run.text, left, y);
      left += this.doc.getTextWidth(run.text);
    }
    this.doc.setFont(FONT, style);
  }

  /**
   * The chart as svg2pdf should draw it: the same element when Montserrat has every character of
   * its texts, else a copy whose characters Montserrat lacks sit in `<tspan font-family>` of the
   * fallback face (svg2pdf lays tspans out one after another and picks a face by family name).
   */
  svgForPdf(svg: SVGSVGElement): SVGSVGElement {
    if (!this.fallback || !this.needsFallback(svg.textContent ?? '', 'normal')) return svg;
    const copy = svg.cloneNode(true) as SVGSVGElement;
    const walker = copy.ownerDocument.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if ((node as Text).parentElement?.closest('text')) texts.push(node as Text);
    }
    for (const node of texts) {
      const runs = this.runs(node.data, 'normal');
      if (runs.every((run) => run.font === FONT)) continue;
      const parts = runs.map((run) => {
        if (run.font === FONT) return copy.ownerDocument.createTextNode(run.text);
        const span = copy.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'tspan');
        span.setAttribute('font-family', run.font);
        span.textContent = run.text;
        return span;
      });
      node.replaceWith(...parts);
    }
    return copy;
  }
}

/** autotable's and svg2pdf's font styles, as the two faces have them. */
export function faceStyle(style: string | undefined): FaceStyle {
  return style?.includes('bold') ? 'bold' : 'normal';
}
