import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One series over wall-clock time (seconds since 1970) with uPlot: visitors per minute, occupancy. */
export function TimeChart({ title, x, y, series, testId }: { title: string; x: number[]; y: number[]; series: string; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(260, Math.min(680, element.clientWidth || 600));
    const chart = new uPlot(
      {
        width,
        height: 220,
        axes: [{}, { label: series, size: 60 }],
        series: [{ label: 'Время' }, { label: series, stroke: '#1f5fa8', width: 2, fill: 'rgba(31, 95, 168, 0.12)' }],
      },
      [x, y],
      element,
    );
    return () => chart.destroy();
  }, [x, y, series]);
  return (
    <figure className="event-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} />
    </figure>
  );
}
