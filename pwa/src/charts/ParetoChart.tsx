import { ChartFrame, ValueGrid } from './ChartFrame';
import { CHART_FONT, GRID, INK, MUTED, niceScale, shorten } from './svg';
import { useChartWidth } from './useChartWidth';

export interface ParetoBar {
  name: string;
  color: string;
  value: number;
  cumulativePercent: number;
}

/**
 * Pareto chart of losses: bars by descending value, the cumulative percent as a line on the
 * right axis, and the 80 % line.
 */
export function ParetoChart({
  title,
  bars,
  unit,
  height = 420,
  formatValue,
  formatPercent,
  testId,
}: {
  title: string;
  bars: ParetoBar[];
  unit: string;
  height?: number;
  formatValue: (v: number) => string;
  formatPercent: (p: number) => string;
  testId?: string;
}) {
  // A phone gets its own width (labels keep their size) and a plot no taller than the screen needs.
  const { ref, width, narrow } = useChartWidth(1000);
  const left = narrow ? 52 : 64;
  const right = narrow ? 44 : 56;
  const top = 24;
  const plotW = width - left - right;
  const slanted = narrow && Math.min(160, plotW / Math.max(1, bars.length)) < 72;
  const bottom = slanted ? 110 : 90;
  const plotH = narrow ? Math.min(height - top - 90, Math.max(180, Math.round(width * 0.7))) : height - top - bottom;
  const svgHeight = narrow ? top + plotH + bottom : height;
  const [step, max] = niceScale(Math.max(0, ...bars.map((b) => b.value)));
  const y = (v: number) => top + plotH * (1 - v / max);
  const yp = (p: number) => top + plotH * (1 - p / 100);
  // Few bars stay bar-shaped: a band is at most 160 wide, the group centred.
  const band = Math.min(160, plotW / Math.max(1, bars.length));
  const offset = left + (plotW - band * bars.length) / 2 - left;
  const ticks: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) ticks.push(v);
  const points = bars.map((b, i) => `${left + offset + band * i + band / 2},${yp(b.cumulativePercent)}`).join(' ');
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={svgHeight} testId={testId}>
      <g fontFamily={CHART_FONT} fontSize={12} fill={MUTED}>
        <ValueGrid ticks={ticks} y={y} left={left} plotWidth={plotW} format={formatValue} stroke={GRID} />
        {[0, 20, 40, 60, 80, 100].map((p) => (
          <text key={p} x={left + plotW + 6} y={yp(p) + 4}>{`${p}\u00a0%`}</text>
        ))}
        <text x={left} y={14} fill={INK}>
          {unit}
        </text>
      </g>
      <line x1={left} x2={left + plotW} y1={yp(80)} y2={yp(80)} stroke="#b3261e" strokeDasharray="6 4" />
      {bars.map((b, i) => (
        <g key={`${b.name}-${i}`}>
          <rect x={left + offset + band * i + band * 0.15} y={y(b.value)} width={band * 0.7} height={Math.max(0, y(0) - y(b.value))} fill={b.color}>
            <title>{`${b.name}: ${formatValue(b.value)}`}</title>
          </rect>
          <text x={left + offset + band * i + band / 2} y={y(b.value) + 16} textAnchor="middle" fontFamily={CHART_FONT} fontSize={13} fill="#fff">
            {y(0) - y(b.value) > 22 ? formatValue(b.value) : ''}
          </text>
          {slanted ? (
            <text
              x={left + offset + band * i + band / 2}
              y={top + plotH + 14}
              transform={`rotate(-40 ${left + offset + band * i + band / 2} ${top + plotH + 14})`}
              textAnchor="end"
              fontFamily={CHART_FONT}
              fontSize={12}
              fill={INK}
            >
              {shorten(b.name, 16)}
            </text>
          ) : (
            <text x={left + offset + band * i + band / 2} y={top + plotH + 18} textAnchor="middle" fontFamily={CHART_FONT} fontSize={12} fill={INK}>
              {shorten(b.name, Math.max(6, Math.floor(band / 7.5)))}
            </text>
          )}
        </g>
      ))}
      {bars.length > 0 && <polyline points={points} fill="none" stroke={INK} strokeWidth={2} />}
      {bars.map((b, i) => (
        <g key={`p-${i}`}>
          <circle cx={left + offset + band * i + band / 2} cy={yp(b.cumulativePercent)} r={4} fill={INK} />
          <text x={left + offset + band * i + band / 2 + 6} y={yp(b.cumulativePercent) - 6} fontFamily={CHART_FONT} fontSize={11} fill={INK}>
            {formatPercent(b.cumulativePercent)}
          </text>
        </g>
      ))}
      <line x1={left} x2={left + plotW} y1={y(0)} y2={y(0)} stroke={INK} />
    </ChartFrame>
  );
}
