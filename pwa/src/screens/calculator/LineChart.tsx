import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface LineChartProps {
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  y: number[];
  /** Name of the series in the legend. */
  series: string;
  color?: string;
  /** Formats a y value for the legend and the axis. */
  formatY?: (value: number) => string;
  testId?: string;
}

/** One line over x with uPlot: the calculator's savings and measurement graphs. */
export function LineChart({ title, xLabel, yLabel, x, y, series, color = '#1f5fa8', formatY, testId }: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(280, Math.min(720, element.clientWidth || 600));
    const format = formatY ?? ((v: number) => String(v));
    const chart = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: false } },
        axes: [{ label: xLabel }, { label: yLabel, size: 90, values: (_u, values) => values.map((v) => format(v)) }],
        series: [{ label: xLabel }, { label: series, stroke: color, width: 2, points: { show: true }, value: (_u, v) => (v === null ? '—' : format(v)) }],
      },
      [x, y],
      element,
    );
    return () => chart.destroy();
  }, [x, y, xLabel, yLabel, series, color, formatY]);
  return (
    <figure className="calculator-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} />
    </figure>
  );
}
