import { ChartFrame, ValueGrid } from './ChartFrame';
import { legendHeight, SvgLegend } from './Legend';
import { useChartWidth } from './useChartWidth';
import { CHART_FONT, GRID, INK, MUTED, niceScale, shorten } from './svg';

export interface BarSeries {
  name: string;
  color: string;
  values: number[];
}

export interface ReferenceLine {
  name: string;
  /** One value for the whole chart, or one per category. */
  values: number[] | number;
  color?: string;
}

export interface BarChartProps {
  title: string;
  categories: string[];
  series: BarSeries[];
  stacked?: boolean;
  reference?: ReferenceLine | null;
  unit: string;
  height?: number;
  formatValue: (value: number) => string;
  /** Write each bar's value above it. */
  valueLabels?: boolean;
  testId?: string;
}

/** Height of a value label above its baseline, px (font 11–13). */
const LABEL_ASCENT = 12;

/**
 * Baseline of a value label that would sit at `baseline`, moved so that the dashed reference line
 * at `lineY` does not cross it: a label that would touch the line goes just above it.
 */
export function labelClearOfLine(baseline: number, lineY: number | null): number {
  if (lineY === null) return baseline;
  const touches = baseline + 3 >= lineY - 2 && baseline - LABEL_ASCENT <= lineY + 2;
  return touches ? Math.min(baseline, lineY - 5) : baseline;
}

/**
 * Vertical bars, grouped or stacked, with an optional reference line (the 15 % allowed
 * fluctuation, the normative working time). Plain SVG so that the PDF gets it as vectors.
 */
export function BarChart({
  title,
  categories,
  series,
  stacked = false,
  reference,
  unit,
  height = 420,
  formatValue,
  valueLabels = false,
  testId,
}: BarChartProps) {
  // A phone gets its own width: the legend goes below the plot and wraps, labels keep their size.
  const { ref, width, narrow } = useChartWidth(1000);
  const legendItems = [
    ...series.map((s) => ({ name: s.name, color: s.color })),
    ...(reference ? [{ name: reference.name, color: reference.color ?? '#b3261e' }] : []),
  ];
  const legendWidth = narrow ? width - 16 : 320;
  const left = narrow ? 52 : 64;
  const right = narrow ? 8 : legendWidth + 20;
  const top = 24;
  const band0 = (width - left - right) / Math.max(1, categories.length);
  // Narrow bands: category names are written slanting, so they can be longer than a band.
  const slanted = narrow && band0 < 72;
  const bottom = slanted ? 100 : 70;
  const plotH = narrow ? Math.min(height - top - 70, Math.max(180, Math.round(width * 0.7))) : height - top - bottom;
  const legendTop = top + plotH + bottom;
  const svgHeight = narrow ? legendTop + legendHeight(legendItems, legendWidth, 22) + 8 : height;
  const plotW = width - left - right;
  const totals = categories.map((_, c) =>
    stacked ? series.reduce((s, x) => s + Math.max(0, x.values[c] ?? 0), 0) : Math.max(0, ...series.map((x) => x.values[c] ?? 0)),
  );
  const refValues = reference ? categories.map((_, c) => (typeof reference.values === 'number' ? reference.values : (reference.values[c] ?? 0))) : [];
  const minValue = Math.min(0, ...series.flatMap((x) => x.values));
  const [step, top0] = niceScale(Math.max(...totals, ...refValues, 0));
  const [, bottom0] = minValue < 0 ? niceScale(-minValue) : [step, 0];
  const span = top0 + bottom0;
  const y = (v: number) => top + plotH * (1 - (v + bottom0) / span);
  const band = plotW / Math.max(1, categories.length);
  const groupW = band * 0.7;
  const barW = stacked ? groupW : groupW / Math.max(1, series.length);
  const ticks: number[] = [];
  for (let v = -bottom0; v <= top0 + 1e-9; v += step) ticks.push(Math.round(v * 1e6) / 1e6 || 0);
  const maxLabel = Math.max(6, Math.floor(band / 8));
  const lineYAt = (c: number) => (reference ? y(refValues[c]!) : null);
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={svgHeight} testId={testId}>
      <g fontFamily={CHART_FONT} fontSize={12} fill={MUTED}>
        <ValueGrid ticks={ticks} y={y} left={left} plotWidth={plotW} format={formatValue} stroke={GRID} />
        <text x={left} y={14} fill={INK}>
          {unit}
        </text>
      </g>
      {categories.map((category, c) => (
        <CategoryBars
          key={`${category}-${c}`}
          category={category}
          index={c}
          series={series}
          stacked={stacked}
          valueLabels={valueLabels}
          formatValue={formatValue}
          reference={reference}
          referenceY={lineYAt(c)}
          layout={{ left, top, plotH, band, groupW, barW, slanted, maxLabel, y }}
        />
      ))}
      {reference && typeof reference.values === 'number' && (
        <line
          x1={left}
          x2={left + plotW}
          y1={y(reference.values)}
          y2={y(reference.values)}
          stroke={reference.color ?? '#b3261e'}
          strokeWidth={2.5}
          strokeDasharray="8 4"
          data-testid="reference-line"
        />
      )}
      <line x1={left} x2={left + plotW} y1={y(0)} y2={y(0)} stroke={INK} />
      {narrow ? (
        <SvgLegend x={8} y={legendTop} width={legendWidth} items={legendItems} wrap />
      ) : (
        <SvgLegend x={width - legendWidth} y={top} width={legendWidth} items={legendItems} />
      )}
    </ChartFrame>
  );
}

/** Where the bars of one category go: the plot's box, the band of each category and the value scale. */
interface BarLayout {
  left: number;
  top: number;
  plotH: number;
  band: number;
  groupW: number;
  barW: number;
  /** Category names written slanting (narrow bands on a phone). */
  slanted: boolean;
  /** Characters of a category name written straight. */
  maxLabel: number;
  y: (value: number) => number;
}

/** A value written over its bar (over a stack: the stack's total). */
function ValueLabel({ x, y, size, children }: { x: number; y: number; size: number; children: string }) {
  return (
    <text x={x} y={y} textAnchor="middle" fontFamily={CHART_FONT} fontSize={size} fill={INK} data-testid="bar-label">
      {children}
    </text>
  );
}

/** One category: its bars (side by side or stacked), their value labels, its name and its own reference line. */
function CategoryBars({
  category,
  index: c,
  series,
  stacked,
  valueLabels,
  formatValue,
  reference,
  referenceY,
  layout,
}: {
  category: string;
  index: number;
  series: BarSeries[];
  stacked: boolean;
  valueLabels: boolean;
  formatValue: (value: number) => string;
  reference: ReferenceLine | null | undefined;
  /** Height of the reference line over this category, null without one. */
  referenceY: number | null;
  layout: BarLayout;
}) {
  const { left, top, plotH, band, groupW, barW, slanted, maxLabel, y } = layout;
  let stackBase = 0;
  const x0 = left + band * c + (band - groupW) / 2;
  return (
    <g>
      {series.map((s, i) => {
        const value = s.values[c] ?? 0;
        const from = stacked ? stackBase : 0;
        const to = from + value;
        if (stacked) stackBase = to;
        const x = stacked ? x0 : x0 + i * barW;
        const yTop = y(Math.max(from, to));
        const h = Math.abs(y(from) - y(to));
        return (
          <g key={s.name}>
            <rect x={x} y={yTop} width={Math.max(1, barW - 2)} height={Math.max(0, h)} fill={s.color}>
              <title>{`${category} — ${s.name}: ${formatValue(value)}`}</title>
            </rect>
            {valueLabels && !stacked && h > 0 && (
              <ValueLabel x={x + barW / 2 - 1} y={value >= 0 ? labelClearOfLine(yTop - 4, referenceY) : yTop + h + 13} size={11}>
                {formatValue(value)}
              </ValueLabel>
            )}
          </g>
        );
      })}
      {valueLabels && stacked && (
        <ValueLabel x={x0 + groupW / 2} y={labelClearOfLine(y(stackBase) - 4, referenceY)} size={13}>
          {formatValue(stackBase)}
        </ValueLabel>
      )}
      {slanted ? (
        <text
          x={left + band * c + band / 2}
          y={top + plotH + 14}
          transform={`rotate(-40 ${left + band * c + band / 2} ${top + plotH + 14})`}
          textAnchor="end"
          fontFamily={CHART_FONT}
          fontSize={12}
          fill={INK}
        >
          {shorten(category, 16)}
        </text>
      ) : (
        <text x={left + band * c + band / 2} y={top + plotH + 18} textAnchor="middle" fontFamily={CHART_FONT} fontSize={12} fill={INK}>
          {shorten(category, maxLabel)}
        </text>
      )}
      {reference && typeof reference.values !== 'number' && (
        <line
          x1={left + band * c + 4}
          x2={left + band * (c + 1) - 4}
          y1={referenceY!}
          y2={referenceY!}
          stroke={reference.color ?? '#b3261e'}
          strokeWidth={2.5}
          strokeDasharray="8 4"
        />
      )}
    </g>
  );
}
