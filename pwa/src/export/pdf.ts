/**
 * PDF from a report's print layout, in the browser (works offline on a tablet, no server):
 * jsPDF writes the pages, jspdf-autotable the tables (straight from their <table> elements, header
 * repeated on every page), svg2pdf.js the charts as vectors. Montserrat (Latin and Cyrillic) is
 * embedded. The print layout marks what goes in with `data-pdf`:
 *   title, heading, text — lines of text; table — a <table>; chart — an <svg> (or an element
 *   holding one or more); page-break — starts a new page.
 */
import type { jsPDF as JsPdf } from 'jspdf';

const FONT = 'Montserrat';
const MARGIN = 12;
const PAGE = { width: 297, height: 210 };
const CONTENT_WIDTH = PAGE.width - MARGIN * 2;

export interface PdfResult {
  blob: Blob;
  pages: number;
}

async function loadFonts(doc: JsPdf) {
  const [{ default: regular }, { default: bold }] = await Promise.all([
    import('@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf?inline'),
    import('@expo-google-fonts/montserrat/700Bold/Montserrat_700Bold.ttf?inline'),
  ]);
  const base64 = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);
  doc.addFileToVFS('Montserrat-Regular.ttf', base64(regular));
  doc.addFont('Montserrat-Regular.ttf', FONT, 'normal');
  doc.addFileToVFS('Montserrat-Bold.ttf', base64(bold));
  doc.addFont('Montserrat-Bold.ttf', FONT, 'bold');
  doc.setFont(FONT, 'normal');
}

/** The `data-pdf` elements of the layout in document order, none inside another. */
function parts(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('[data-pdf]')].filter((el) => !el.parentElement?.closest('[data-pdf]'));
}

function textOf(el: HTMLElement): string {
  return (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
}

/**
 * Builds the PDF of `root` (the print layout). A4 landscape: the observation sheets are wide.
 * `footer` is written at the bottom of every page with the page number.
 */
export async function buildPdf(root: HTMLElement, footer: string, signal?: AbortSignal): Promise<PdfResult> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable'), import('svg2pdf.js')]);
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
  await loadFonts(doc);
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
      doc.text(line, MARGIN, y + lineHeight * 0.8);
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
      });
      y = ((doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY ?? y) + 4;
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
        await doc.svg(svg, { x: MARGIN + i * (width + gap), y, width: w, height: h });
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
    doc.text(`${footer} · стр. ${page} из ${pages}`, MARGIN, PAGE.height - MARGIN / 2);
  }
  return { blob: doc.output('blob'), pages };
}
