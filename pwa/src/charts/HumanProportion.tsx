import { ChartFrame } from './ChartFrame';
import { wrapText } from './Legend';
import { CHART_FONT, INK } from './svg';
import { useChartWidth } from './useChartWidth';

const SMALL_FIGURE = 'M10 1a5 5 0 1 1 0 10a5 5 0 1 1 0-10Z M5 13h10a3 3 0 0 1 3 3v13h-3v15h-4V32h-2v12H5V29H2V16a3 3 0 0 1 3-3Z';

export interface ProportionGroup {
  name: string;
  range: string;
  count: number;
  percent: number;
  color: string;
}

/**
 * Shares of staff (spec 01 "human_proportion"): twenty small figures coloured by group in
 * proportion, and a line per group with its count and percent.
 */
export function HumanProportion({
  title,
  groups,
  formatPercent,
  testId,
}: {
  title: string;
  groups: ProportionGroup[];
  formatPercent: (p: number) => string;
  testId?: string;
}) {
  const figures = 20;
  const counts = groups.map((g) => Math.round((g.percent / 100) * figures));
  const colors = groups.flatMap((g, i) => Array.from({ length: counts[i]! }, () => g.color)).slice(0, figures);
  while (colors.length < figures) colors.push('#e3e8ef');
  // A phone: two rows of ten figures and group lines that wrap, at the screen's own width.
  const { ref, width, narrow } = useChartWidth(1000);
  const perRow = narrow ? 10 : figures;
  const pitch = narrow ? Math.min(40, (width - 20) / perRow) : 40;
  const scale = (pitch / 40) * 1.6;
  // A figure is 44 units tall: 70 px at the desktop's scale 1.6 and pitch 40.
  const rowHeight = 76 * (pitch / 40);
  const figuresHeight = 10 + Math.ceil(figures / perRow) * rowHeight;
  const maxChars = Math.max(16, Math.floor((width - 42) / 9));
  const lines = groups.map((g) =>
    narrow
      ? wrapText(`${g.name} (${g.range}): ${g.count} — ${formatPercent(g.percent)}`, maxChars)
      : [`${g.name} (${g.range}): ${g.count} — ${formatPercent(g.percent)}`],
  );
  const top = narrow ? figuresHeight + 20 : 100;
  const offsets = lines.reduce<number[]>((acc, l, i) => [...acc, (acc[i] ?? 0) + l.length * 20 + 6], [0]);
  const height = narrow ? top + offsets[groups.length]! : 110 + groups.length * 26;
  return (
    <ChartFrame boxRef={ref} title={title} width={width} height={height} align="xMinYMin" testId={testId}>
      {colors.map((color, i) => (
        <path
          key={i}
          d={SMALL_FIGURE}
          transform={`translate(${(narrow ? 10 : 20) + (i % perRow) * pitch},${10 + Math.floor(i / perRow) * rowHeight}) scale(${scale})`}
          fill={color}
        />
      ))}
      {groups.map((g, i) => (
        <g key={g.name} transform={`translate(${narrow ? 10 : 20},${top + (narrow ? offsets[i]! : i * 26)})`} fontFamily={CHART_FONT} fontSize={14} fill={INK}>
          <rect width={14} height={14} y={-11} rx={3} fill={g.color} />
          <text x={22}>
            {lines[i]!.map((line, k) => (
              <tspan key={k} x={22} dy={k === 0 ? 0 : 20}>
                {line}
              </tspan>
            ))}
          </text>
        </g>
      ))}
    </ChartFrame>
  );
}
