/**
 * PDF from a report's print layout, in the browser (works offline on a tablet, no server):
 * jsPDF writes the pages, jspdf-autotable the tables (straight from their <table> elements, header
 * repeated on every page), svg2pdf.js the charts as vectors. Montserrat (Latin and Cyrillic) is
 * embedded, and DejaVu Sans for the characters Montserrat lacks (pdf-fonts.ts). The print layout
 * marks what goes in with `data-pdf`:
 *   title, heading, text — lines of text; table — a <table>; chart — an <svg> (or an element
 *   holding one or more); page-break — starts a new page.
 * Controls are not printed: buttons, fields, lists and whatever is marked `data-pdf-skip` inside a
 * part are left out of its text and its table cells, and a table column holding only controls is
 * left out whole.
 */
import type { jsPDF as JsPdf } from 'jspdf';
import type { autoTable as AutoTable, Cell, CellHookData } from 'jspdf-autotable';
import { FONT, Faces, faceStyle, type FaceStyle } from './pdf-fonts';

const MARGIN = 12;
const PAGE = { width: 297, height: 210 };
const CONTENT_WIDTH = PAGE.width - MARGIN * 2;
/** What a PDF never prints: controls of the screen, and what the layout marks as not for paper. */
const SKIP = 'button, input, select, textarea, [role=button], [data-pdf-skip]';

export interface PdfResult {
  blob: Blob;
  pages: number;
}

/** The `data-pdf` elements of the layout in document order, none inside another nor inside a skipped element. */
function parts(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[data-pdf]')].filter((el) => !el.parentElement?.closest('[data-pdf]') && !el.closest(SKIP));
}

/** The text of `el` without its controls, from a copy (as the element's own text, not as laid out). */
function textWithout(el: HTMLElement): string {
  const copy = el.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(SKIP).forEach((control) => control.remove());
  return copy.textContent ?? '';
}

/** Runs `read` while `elements` are taken out of the layout (display: none), then puts them back as they were. */
function withHidden<T>(elements: HTMLElement[], read: () => T): T {
  const styles = elements.map((el) => el.getAttribute('style'));
  for (const el of elements) el.style.setProperty('display', 'none', 'important');
  try {
    return read();
  } finally {
    elements.forEach((el, i) => (styles[i] === null ? el.removeAttribute('style') : el.setAttribute('style', styles[i]!)));
  }
}

function textOf(el: HTMLElement): string {
  // innerText as laid out (hidden parts left out) where the layout is rendered; the copy's text otherwise.
  const rendered = el.getClientRects().length > 0;
  const text = rendered ? withHidden([...el.querySelectorAll<HTMLElement>(SKIP)], () => el.innerText) : '';
  return (text || textWithout(el)).replace(/\s+/g, ' ').trim();
}

/** A cell's lines as jspdf-autotable reads an HTML cell (`<br>` a line break), its controls left out. */
function cellLines(cell: HTMLElement): string[] {
  const copy = cell.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(SKIP).forEach((control) => control.remove());
  copy.innerHTML = copy.innerHTML.replace(/\n/g, '').replace(/ +/g, ' ');
  copy.innerHTML = copy.innerHTML
    .split(/<br.*?>/)
    .map((part) => part.trim())
    .join('\n');
  return (copy.textContent ?? '').split(/\r\n|\r|\n/g);
}

/**
 * The cells of the columns that hold nothing but controls in every row below the header (the
 * «Открыть» of a list, the hidden «Действия» header above it). None for a table with merged cells.
 */
function controlColumns(table: HTMLTableElement): HTMLElement[] {
  const rows = [...table.rows];
  if (rows.some((row) => [...row.cells].some((cell) => cell.colSpan > 1 || cell.rowSpan > 1))) return [];
  const data = rows.filter((row) => row.parentElement?.tagName !== 'THEAD');
  const width = Math.max(0, ...rows.map((row) => row.cells.length));
  const hidden: HTMLElement[] = [];
  for (let column = 0; column < width; column++) {
    const cells = data.map((row) => row.cells[column]).filter((cell) => cell !== undefined);
    const controlsOnly = cells.length > 0 && cells.some((cell) => cell.querySelector(SKIP)) && cells.every((cell) => !textWithout(cell).trim());
    if (controlsOnly) hidden.push(...rows.map((row) => row.cells[column]).filter((cell) => cell !== undefined));
  }
  return hidden;
}

/**
 * The table with jspdf-autotable, from `y`; returns where the next part starts. A cell keeps
 * Montserrat for its layout; one with a character Montserrat lacks is drawn by us, run by run, where
 * autotable would have put its text (same alignment and line height).
 */
function drawTable(doc: JsPdf, autoTable: typeof AutoTable, faces: Faces, table: HTMLTableElement, y: number): number {
  const ownText = new WeakMap<Cell, string[]>();
  const drawRuns = (cell: Cell, lines: string[]) => {
    const style: FaceStyle = faceStyle(cell.styles.fontStyle);
    const fontSize = doc.getFontSize() / doc.internal.scaleFactor;
    const lineHeight = fontSize * doc.getLineHeightFactor();
    const at = cell.getTextPos();
    // autotable's text: the first baseline 0.85 of the font size below the top, lines a line height apart.
    let baseline = at.y + fontSize * (2 - 1.15);
    if (cell.styles.valign === 'middle') baseline -= (lines.length / 2) * lineHeight;
    else if (cell.styles.valign === 'bottom') baseline -= lines.length * lineHeight;
    for (const line of lines) {
      const width = cell.styles.halign === 'right' || cell.styles.halign === 'center' ? faces.width(line, style) : 0;
      faces.draw(line, at.x - (cell.styles.halign === 'center' ? width / 2 : width), baseline, style);
      baseline += lineHeight;
    }
    doc.setFont(cell.styles.font, cell.styles.fontStyle);
  };
  withHidden(controlColumns(table), () =>
    autoTable(doc, {
      html: table,
      startY: y,
      margin: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN + 6 },
      theme: 'grid',
      useCss: false,
      styles: {
        font: FONT,
        fontStyle: 'normal',
        fontSize: 7,
        cellPadding: 1,
        overflow: 'linebreak',
        lineColor: [217, 222, 229],
        lineWidth: 0.1,
        textColor: [29, 36, 48],
      },
      headStyles: { font: FONT, fontStyle: 'bold', fillColor: [238, 242, 247], textColor: [29, 36, 48] },
      footStyles: { font: FONT, fontStyle: 'bold', fillColor: [245, 247, 250], textColor: [29, 36, 48] },
      showHead: 'everyPage',
      didParseCell: ({ cell }: CellHookData) => {
        if (cell.raw instanceof HTMLElement && cell.raw.querySelector(SKIP)) cell.text = cellLines(cell.raw);
      },
      willDrawCell: ({ cell }: CellHookData) => {
        if (!faces.needsFallback(cell.text.join('\n'), faceStyle(cell.styles.fontStyle))) return;
        ownText.set(cell, cell.text);
        cell.text = [''];
      },
      didDrawCell: ({ cell }: CellHookData) => {
        const lines = ownText.get(cell);
        if (lines) drawRuns(cell, lines);
      },
    }),
  );
  return ((doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY ?? y) + 4;
}

/**
 * Builds the PDF of `root` (the print layout). A4 landscape: the observation sheets are wide.
 * `footer` is written at the bottom of every page with the page number.
 */
export async function buildPdf(root: HTMLElement, footer: string, signal?: AbortSignal): Promise<PdfResult> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable'), import('svg2pdf.js')]);
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
  const faces = await Faces.load(doc, `${root.textContent ?? ''}${footer}`);
  doc.setProperties({ title: footer, creator: 'Norma' });
  let y = MARGIN;
  const bottom = PAGE.height - MARGIN - 6;
  const newPage = () => {
    doc.addPage('a4', 'landscape');
    y = MARGIN;
  };
  const ensure = (height: number) => {
    if (y + height > bottom && y > MARGIN) newPage();
  };
  const writeText = (text: string, size: number, style: 'normal' | 'bold', gapAfter: number) => {
    doc.setFont(FONT, style);
    doc.setFontSize(size);
    const lines = doc.splitTextToSize(text, CONTENT_WIDTH) as string[];
    const lineHeight = size * 0.3528 * 1.35;
    for (const line of lines) {
      ensure(lineHeight);
      faces.draw(line, MARGIN, y + lineHeight * 0.8, style);
      y += lineHeight;
    }
    y += gapAfter;
  };

  const chartSvgs = (el: HTMLElement) => (el instanceof SVGSVGElement ? [el] : [...el.querySelectorAll<SVGSVGElement>('svg.chart')]);
  const chartHeights = (svgs: SVGSVGElement[]) => {
    const width = (CONTENT_WIDTH - 6 * (svgs.length - 1)) / Math.max(1, svgs.length);
    return svgs.map((svg) => {
      const box = svg.viewBox.baseVal;
      const aspect = box && box.width > 0 ? box.height / box.width : 0.5;
      // A chart keeps roughly its screen size (px → mm), never more than the width allows or the page holds with a caption.
      const screenHeight = Number(svg.getAttribute('height'));
      return Math.min(width * aspect, bottom - MARGIN - 22, screenHeight > 0 ? screenHeight * 0.27 : Infinity);
    });
  };
  const all = parts(root);
  for (const [index, el] of all.entries()) {
    // Give the page a breath between parts (a long report must not freeze the tab), and stop if it was left.
    await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
    const kind = el.dataset.pdf;
    const next = all[index + 1];
    if (kind === 'page-break') {
      if (y > MARGIN) newPage();
    } else if (kind === 'title') {
      writeText(textOf(el), 16, 'bold', 2);
    } else if (kind === 'heading') {
      // Keep a heading with what it titles: the whole chart, or the first rows of a table.
      const following = next?.dataset.pdf === 'chart' ? Math.max(0, ...chartHeights(chartSvgs(next))) : 20;
      ensure(8 + following);
      writeText(textOf(el), 12, 'bold', 1.5);
    } else if (kind === 'text') {
      writeText(textOf(el), 9, 'normal', 2);
    } else if (kind === 'table') {
      const table = el instanceof HTMLTableElement ? el : el.querySelector('table');
      if (!table) continue;
      ensure(20);
      y = drawTable(doc, autoTable, faces, table, y);
    } else if (kind === 'chart') {
      const svgs = chartSvgs(el);
      const columns = Math.max(1, svgs.length);
      const gap = 6;
      const width = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
      const heights = chartHeights(svgs);
      const height = Math.max(0, ...heights);
      ensure(height);
      for (const [i, svg] of svgs.entries()) {
        const box = svg.viewBox.baseVal;
        const aspect = box && box.width > 0 ? box.height / box.width : 0.5;
        const h = heights[i]!;
        const w = Math.min(width, h / aspect);
        // svg2pdf only sets what differs from its defaults: start it from the regular face.
        doc.setFont(FONT, 'normal');
        await doc.svg(faces.svgForPdf(svg), { x: MARGIN + i * (width + gap), y, width: w, height: h });
      }
      y += height + 4;
    }
  }

  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont(FONT, 'normal');
    doc.setFontSize(7);
    doc.setTextColor(95, 107, 122);
    faces.draw(`${footer} · стр. ${page} из ${pages}`, MARGIN, PAGE.height - MARGIN / 2, 'normal');
  }
  return { blob: doc.output('blob'), pages };
}
