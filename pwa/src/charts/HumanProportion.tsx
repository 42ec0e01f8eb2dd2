import { CHART_FONT, INK } from './svg';

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
export function HumanProportion({ title, groups, formatPercent, testId }: { title: string; groups: ProportionGroup[]; formatPercent: (p: number) => string; testId?: string }) {
  const figures = 20;
  const counts = groups.map((g) => Math.round((g.percent / 100) * figures));
  const colors = groups.flatMap((g, i) => Array.from({ length: counts[i]! }, () => g.color)).slice(0, figures);
  while (colors.length < figures) colors.push('#e3e8ef');
  const width = 1000;
  const height = 110 + groups.length * 26;
  return (
    <svg className="chart" role="img" aria-label={title} viewBox={`0 0 ${width} ${height}`} width="100%" height={height} preserveAspectRatio="xMinYMin meet" data-testid={testId}>
      <title>{title}</title>
      {colors.map((color, i) => (
        <path key={i} d={SMALL_FIGURE} transform={`translate(${20 + i * 40},10) scale(1.6)`} fill={color} />
      ))}
      {groups.map((g, i) => (
        <g key={g.name} transform={`translate(20,${100 + i * 26})`} fontFamily={CHART_FONT} fontSize={14} fill={INK}>
          <rect width={14} height={14} y={-11} rx={3} fill={g.color} />
          <text x={22}>{`${g.name} (${g.range}): ${g.count} — ${formatPercent(g.percent)}`}</text>
        </g>
      ))}
    </svg>
  );
}
