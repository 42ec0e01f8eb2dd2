import { CHART_FONT, INK, shorten } from './svg';

export interface LegendItem {
  name: string;
  color: string;
  value?: string;
}

/** A legend drawn inside a chart's SVG (so that it goes into the PDF with the chart). */
export function SvgLegend({ items, x, y, width, lineHeight = 22 }: { items: LegendItem[]; x: number; y: number; width: number; lineHeight?: number }) {
  // Montserrat at 13 px is about 8.6 px a character; the PDF measures a little wider than the screen.
  const maxChars = Math.max(12, Math.floor(width / 8.6));
  return (
    <g fontFamily={CHART_FONT} fontSize={13} fill={INK}>
      {items.map((item, i) => (
        <g key={`${item.name}-${i}`} transform={`translate(${x},${y + i * lineHeight})`}>
          <rect width={14} height={14} rx={3} fill={item.color} />
          <text x={20} y={12}>{shorten(item.value ? `${item.name} — ${item.value}` : item.name, maxChars)}</text>
        </g>
      ))}
    </g>
  );
}
