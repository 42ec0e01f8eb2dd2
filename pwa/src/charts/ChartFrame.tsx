import type { ReactNode, RefObject } from 'react';

/**
 * The box and the SVG every chart draws in: the box is what `useChartWidth` measures, the SVG
 * scales its `width × height` drawing to the box and carries the title for screen readers and the
 * PDF. `fitWidth` leaves the CSS height to the width (a drawing taller on wide screens).
 */
export function ChartFrame({
  boxRef,
  title,
  width,
  height,
  align = 'xMinYMid',
  fitWidth = false,
  testId,
  children,
}: {
  boxRef: RefObject<HTMLDivElement | null>;
  title: string;
  width: number;
  height: number;
  align?: 'xMinYMid' | 'xMinYMin' | 'xMidYMid';
  fitWidth?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div ref={boxRef} className="chart-box">
      <svg
        className="chart"
        role="img"
        aria-label={title}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={fitWidth ? undefined : height}
        preserveAspectRatio={`${align} meet`}
        data-testid={testId}
      >
        <title>{title}</title>
        {children}
      </svg>
    </div>
  );
}

/** Horizontal grid lines with their values at the left of a value axis (bar and Pareto charts). */
export function ValueGrid({
  ticks,
  y,
  left,
  plotWidth,
  format,
  stroke,
}: {
  ticks: number[];
  y: (value: number) => number;
  left: number;
  plotWidth: number;
  format: (value: number) => string;
  stroke: string;
}) {
  return ticks.map((v) => (
    <g key={v}>
      <line x1={left} x2={left + plotWidth} y1={y(v)} y2={y(v)} stroke={stroke} />
      <text x={left - 6} y={y(v) + 4} textAnchor="end">
        {format(v)}
      </text>
    </g>
  ));
}
