import { CHART_FONT, INK, shorten } from './svg';

export interface LegendItem {
  name: string;
  color: string;
  value?: string;
}

// Montserrat at 13 px is about 8.6 px a character; the PDF measures a little wider than the screen.
const CHAR_PX = 8.6;

const itemText = (item: LegendItem) => (item.value ? `${item.name} — ${item.value}` : item.name);

/** Splits a legend text into lines of at most `maxChars`, at spaces where it can. */
export function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= maxChars) line = candidate;
    else {
      if (line) lines.push(line);
      // A word longer than a line is cut into pieces.
      let rest = word;
      while (rest.length > maxChars) {
        lines.push(rest.slice(0, maxChars));
        rest = rest.slice(maxChars);
      }
      line = rest;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** Lines of each legend item when wrapped to `width` (the text starts 20 px after the swatch). */
export function legendLines(items: LegendItem[], width: number): string[][] {
  const maxChars = Math.max(8, Math.floor((width - 20) / CHAR_PX));
  return items.map((item) => wrapText(itemText(item), maxChars));
}

/** Height of a wrapped legend, px. */
export function legendHeight(items: LegendItem[], width: number, lineHeight: number): number {
  return legendLines(items, width).reduce((h, lines) => h + lines.length * (lineHeight - 4) + 4, 0);
}

/**
 * A legend drawn inside a chart's SVG (so that it goes into the PDF with the chart). `wrap`: long
 * texts wrap onto more lines (a phone) instead of being cut with an ellipsis.
 */
export function SvgLegend({
  items,
  x,
  y,
  width,
  lineHeight = 22,
  wrap = false,
}: {
  items: LegendItem[];
  x: number;
  y: number;
  width: number;
  lineHeight?: number;
  wrap?: boolean;
}) {
  if (wrap) {
    const wrapped = legendLines(items, width);
    let top = y;
    return (
      <g fontFamily={CHART_FONT} fontSize={13} fill={INK} data-testid="chart-legend">
        {items.map((item, i) => {
          const lines = wrapped[i]!;
          const at = top;
          top += lines.length * (lineHeight - 4) + 4;
          return (
            <g key={`${item.name}-${i}`} transform={`translate(${x},${at})`}>
              <rect width={14} height={14} rx={3} fill={item.color} />
              <text x={20} y={12}>
                {lines.map((line, k) => (
                  <tspan key={k} x={20} dy={k === 0 ? 0 : lineHeight - 4}>
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          );
        })}
      </g>
    );
  }
  const maxChars = Math.max(12, Math.floor(width / CHAR_PX));
  return (
    <g fontFamily={CHART_FONT} fontSize={13} fill={INK} data-testid="chart-legend">
      {items.map((item, i) => (
        <g key={`${item.name}-${i}`} transform={`translate(${x},${y + i * lineHeight})`}>
          <rect width={14} height={14} rx={3} fill={item.color} />
          <text x={20} y={12}>
            {shorten(itemText(item), maxChars)}
          </text>
        </g>
      ))}
    </g>
  );
}
