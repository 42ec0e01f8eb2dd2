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

function ring(
  data: PieDatum[],
  cx: number,
  cy: number,
  r0: number,
  r1: number,
  minPercent: number,
  formatPercent: (p: number) => string,
  labelOutside: boolean,
) {
  const total = data.reduce((sum, d) => sum + Math.max(0, d.value), 0);
  let angle = 0;
  return data.map((d, i) => {
    const share = total > 0 ? Math.max(0, d.value) / total : 0;
    const a0 = angle;
    const a1 = angle + share * Math.PI * 2;
    angle = a1;
    if (share <= 0 || d.spacer) return null;
    const mid = (a0 + a1) / 2;
    const [lx, ly] = polar(cx, cy, labelOutside ? r1 + 14 : (r0 + r1) / 2, mid);
    const anchor = labelOutside ? (Math.sin(mid) >= 0 ? 'start' : 'end') : 'middle';
    return (
      <g key={`${d.key ?? d.name}-${i}`}>
        <path d={sectorPath(cx, cy, r0, r1, a0, a1)} fill={d.color} stroke="#fff" strokeWidth={1.5}>
          <title>{`${d.name}: ${formatPercent(d.percent)}`}</title>
        </path>
        {d.percent > minPercent && (
          <text x={lx} y={ly + 4} textAnchor={anchor} fontFamily={CHART_FONT} fontSize={labelOutside ? 11 : 14} fill={labelOutside ? INK : '#fff'}>
            {formatPercent(d.percent)}
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
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={svgHeight} fitWidth={below && !narrow} testId={testId}>
      {ring(inner, cx, cy, radius * 0.28, innerR1, labelMinPercent, formatPercent, false)}
      {/* On a phone only the larger outer slices are labelled: small ones would overlap (the legend lists all). */}
      {outer && ring(outer, cx, cy, innerR1 + 2, radius, narrow ? Math.max(outerLabelMinPercent, 3) : outerLabelMinPercent, formatPercent, true)}
      {narrow ? (
        <SvgLegend x={legendX} y={legendY} width={legendWidth} items={legendItems} wrap />
      ) : (
        <SvgLegend x={legendX} y={legendY} width={width - legendX - 10} lineHeight={lineHeight} items={legendItems} />
      )}
    </ChartFrame>
  );
}
