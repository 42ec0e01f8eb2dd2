import { ChartFrame } from './ChartFrame';
import { legendHeight, SvgLegend } from './Legend';
import { useChartWidth } from './useChartWidth';
import { CHART_FONT, INK, polar, sectorPath } from './svg';

export interface PieDatum {
  key?: string;
  name: string;
  color: string;
  value: number;
  /** Percent of the whole, as the API gives it. */
  percent: number;
  /** Takes its angle but is not drawn nor listed (leaves a gap in a ring). */
  spacer?: boolean;
}

export interface RingPieProps {
  title: string;
  /** The inner ring (or the whole pie when there is no outer ring). */
  inner: PieDatum[];
  /** The outer ring (e.g. operations around their types). */
  outer?: PieDatum[];
  /** Labels only on inner slices above this percent (spec 01 §9: 4). */
  labelMinPercent: number;
  /** Labels only on outer slices above this percent (spec 01 §9: 0.01). */
  outerLabelMinPercent?: number;
  height?: number;
  /** Legend to the right of the pie (a full-width chart) or below it (two pies side by side). */
  legend?: 'right' | 'below';
  /** How a legend line shows the value. */
  formatValue: (datum: PieDatum) => string;
  formatPercent: (percent: number) => string;
  testId?: string;
}

/** One ring of a pie: where it lies, which labels it may show and how they look. */
export interface RingSpec {
  data: PieDatum[];
  cx: number;
  cy: number;
  r0: number;
  r1: number;
  /** Labels only on slices above this percent. */
  minPercent: number;
  /** Labels beside the ring (outer ring) or on the slice (inner ring). */
  outside: boolean;
}

interface PieLabel {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  text: string;
  fontSize: number;
  /** The label's box, for the overlap check. */
  box: { x0: number; y0: number; x1: number; y1: number };
}

/** Slices and their angles (radians, 0 at 12 o'clock, clockwise) in a ring. */
function sliceAngles(data: PieDatum[]): { a0: number; a1: number; share: number }[] {
  const total = data.reduce((sum, d) => sum + Math.max(0, d.value), 0);
  let angle = 0;
  return data.map((d) => {
    const share = total > 0 ? Math.max(0, d.value) / total : 0;
    const a0 = angle;
    angle += share * Math.PI * 2;
    return { a0, a1: angle, share };
  });
}

const overlaps = (a: PieLabel['box'], b: PieLabel['box']) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Labels of the rings' slices, none on another: each slice above its ring's threshold gets a
 * label, the larger slices first; a label whose box would cover one already placed is left out
 * (its slice keeps its value in the tooltip and the legend). So tiny slices side by side — under
 * 1 % each — never pile their labels up. Per ring, per slice: the label or null.
 */
export function pieLabels(rings: RingSpec[], formatPercent: (p: number) => string): (PieLabel | null)[][] {
  const result: (PieLabel | null)[][] = rings.map((r) => r.data.map(() => null));
  const candidates: { ring: number; index: number; percent: number; label: PieLabel }[] = [];
  rings.forEach((r, ringIndex) => {
    sliceAngles(r.data).forEach(({ a0, a1, share }, index) => {
      const d = r.data[index]!;
      if (share <= 0 || d.spacer || !(d.percent > r.minPercent)) return;
      const mid = (a0 + a1) / 2;
      const [lx, ly] = polar(r.cx, r.cy, r.outside ? r.r1 + 14 : (r.r0 + r.r1) / 2, mid);
      const anchor = r.outside ? (Math.sin(mid) >= 0 ? 'start' : 'end') : 'middle';
      const fontSize = r.outside ? 11 : 14;
      const text = formatPercent(d.percent);
      // Montserrat's digits are about 0.62 em wide; the box is the text's, baseline at ly + 4.
      const width = text.length * fontSize * 0.62;
      const x0 = anchor === 'start' ? lx : anchor === 'end' ? lx - width : lx - width / 2;
      const y = ly + 4;
      const box = { x0, y0: y - fontSize * 0.8, x1: x0 + width, y1: y + fontSize * 0.25 };
      candidates.push({ ring: ringIndex, index, percent: d.percent, label: { x: lx, y, anchor, text, fontSize, box } });
    });
  });
  const placed: PieLabel['box'][] = [];
  for (const c of candidates.sort((a, b) => b.percent - a.percent)) {
    if (placed.some((box) => overlaps(box, c.label.box))) continue;
    placed.push(c.label.box);
    result[c.ring]![c.index] = c.label;
  }
  return result;
}

function ring(spec: RingSpec, labels: (PieLabel | null)[], formatPercent: (p: number) => string) {
  const { data, cx, cy, r0, r1, outside } = spec;
  return sliceAngles(data).map(({ a0, a1, share }, i) => {
    const d = data[i]!;
    if (share <= 0 || d.spacer) return null;
    const label = labels[i];
    return (
      <g key={`${d.key ?? d.name}-${i}`}>
        <path d={sectorPath(cx, cy, r0, r1, a0, a1)} fill={d.color} stroke="#fff" strokeWidth={1.5}>
          <title>{`${d.name}: ${formatPercent(d.percent)}`}</title>
        </path>
        {label && (
          <text
            x={label.x}
            y={label.y}
            textAnchor={label.anchor}
            fontFamily={CHART_FONT}
            fontSize={label.fontSize}
            fill={outside ? INK : '#fff'}
            data-pie-label=""
          >
            {label.text}
          </text>
        )}
      </g>
    );
  });
}

/**
 * A ring pie (spec 01 "diagram (ring pie)", the time-use pies): one ring, or types inside and
 * operations outside. Labels only above the §9 thresholds; the legend is part of the SVG.
 */
export function RingPie({
  title,
  inner,
  outer,
  labelMinPercent,
  outerLabelMinPercent = 0.01,
  height = 420,
  legend: legendPlace = 'right',
  formatValue,
  formatPercent,
  testId,
}: RingPieProps) {
  const legend = [...inner, ...(outer ?? [])].filter((d) => d.value > 0 && !d.spacer);
  const legendItems = legend.map((d) => ({ name: d.name, color: d.color, value: formatValue(d) }));
  const below = legendPlace === 'below';
  const lineHeight = below ? 24 : Math.min(26, Math.max(14, (height - 20) / Math.max(1, legend.length)));
  // Legend to the right: a wide chart. Below: a narrow one that fits half a page.
  const designPie = below ? Math.max(200, height - legend.length * lineHeight - 16) : height;
  const designWidth = below ? Math.max(designPie, 560) : designPie + 520;
  // A phone: the pie as wide as the screen allows, the legend below it, wrapped, at 13 px.
  const { ref, width, narrow } = useChartWidth(designWidth);
  const pieSize = narrow ? Math.min(width - 16, 340) : designPie;
  const legendWidth = narrow ? width - 16 : 0;
  const svgHeight = narrow ? pieSize + 8 + legendHeight(legendItems, legendWidth, 22) + 8 : height;
  const cy = pieSize / 2;
  const cx = below || narrow ? width / 2 : pieSize / 2 + 10;
  const radius = pieSize / 2 - (outer ? (narrow ? 44 : 50) : 10);
  const innerR1 = outer ? radius * 0.62 : radius;
  const legendX = below || narrow ? (narrow ? 8 : 10) : pieSize + 50;
  const legendY = below || narrow ? pieSize + 8 : Math.max(10, cy - (legend.length * lineHeight) / 2);
  const rings: RingSpec[] = [{ data: inner, cx, cy, r0: radius * 0.28, r1: innerR1, minPercent: labelMinPercent, outside: false }];
  // On a phone only the larger outer slices are labelled (the legend lists all); everywhere a label
  // that would cover another is left out (pieLabels).
  if (outer)
    rings.push({
      data: outer,
      cx,
      cy,
      r0: innerR1 + 2,
      r1: radius,
      minPercent: narrow ? Math.max(outerLabelMinPercent, 3) : outerLabelMinPercent,
      outside: true,
    });
  const labels = pieLabels(rings, formatPercent);
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={svgHeight} fitWidth={below && !narrow} testId={testId}>
      {ring(rings[0]!, labels[0]!, formatPercent)}
      {rings[1] && ring(rings[1], labels[1]!, formatPercent)}
      {narrow ? (
        <SvgLegend x={legendX} y={legendY} width={legendWidth} items={legendItems} wrap />
      ) : (
        <SvgLegend x={legendX} y={legendY} width={width - legendX - 10} lineHeight={lineHeight} items={legendItems} />
      )}
    </ChartFrame>
  );
}
