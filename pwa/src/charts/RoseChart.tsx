import { ChartFrame } from './ChartFrame';
import { CHART_FONT, polar, sectorPath } from './svg';
import { useChartWidth } from './useChartWidth';

export interface RoseSector {
  label: string;
  value: number;
}

/**
 * The rose pie (spec 01 "black_diagram"): equal angles, one per sector (hours of the day), the
 * radius grows with the square root of the value so that areas compare honestly. Dark ground.
 */
export function RoseChart({
  title,
  sectors,
  height = 420,
  formatValue,
  testId,
}: {
  title: string;
  sectors: RoseSector[];
  height?: number;
  formatValue: (v: number) => string;
  testId?: string;
}) {
  // A phone: a square chart as wide as the screen, so the hour labels keep their 11 px.
  const { ref, width, narrow } = useChartWidth(1000);
  const svgHeight = narrow ? width + 30 : height;
  const cx = width / 2;
  const cy = narrow ? 30 + width / 2 : height / 2;
  // Hour labels sit 18 px outside the ring and are about 34 px wide: room for them at the sides.
  const radius = narrow ? width / 2 - 44 : height / 2 - 36;
  const max = Math.max(0, ...sectors.map((s) => s.value));
  const step = (Math.PI * 2) / Math.max(1, sectors.length);
  const r = (v: number) => (max > 0 ? radius * Math.sqrt(v / max) : 0);
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={svgHeight} align="xMidYMid" testId={testId}>
      <rect x={0} y={0} width={width} height={svgHeight} rx={12} fill="#14181f" />
      {[0.25, 0.5, 0.75, 1].map((k) => (
        <circle key={k} cx={cx} cy={cy} r={radius * k} fill="none" stroke="#3a4250" />
      ))}
      {sectors.map((s, i) => {
        const a0 = i * step;
        const a1 = a0 + step;
        const [lx, ly] = polar(cx, cy, radius + 18, a0 + step / 2);
        return (
          <g key={`${s.label}-${i}`}>
            {s.value > 0 && (
              <path d={sectorPath(cx, cy, 0, r(s.value), a0 + 0.01, a1 - 0.01)} fill="#f9a825" stroke="#14181f">
                <title>{`${s.label}: ${formatValue(s.value)}`}</title>
              </path>
            )}
            <text x={lx} y={ly + 4} textAnchor="middle" fontFamily={CHART_FONT} fontSize={11} fill="#d9dee5">
              {s.label}
            </text>
          </g>
        );
      })}
      {max > 0 && (
        <text x={narrow ? 10 : 24} y={narrow ? 20 : 32} fontFamily={CHART_FONT} fontSize={13} fill="#d9dee5">{`Наибольшее — ${formatValue(max)}`}</text>
      )}
    </ChartFrame>
  );
}
