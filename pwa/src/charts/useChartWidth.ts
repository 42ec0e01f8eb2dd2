import { useLayoutEffect, useRef, useState } from 'react';

/** Below this container width a chart is laid out for the screen (a phone), not scaled down. */
export const NARROW_CHART_PX = 640;
/** The narrowest layout a chart gets (a 320 px phone minus the page's padding). */
const MIN_CHART_PX = 260;

/**
 * The width a chart lays itself out for. A wide container gets the chart's design width, scaled
 * to fit as before (desktop, print, PDF). A narrow one (a phone) gets its own width in SVG units,
 * so that 1 unit is 1 CSS pixel and 11–13 px labels stay 11–13 px instead of shrinking to 4–5 px.
 */
export function useChartWidth(designWidth: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setMeasured(element.clientWidth);
    update();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const narrow = measured > 0 && measured < NARROW_CHART_PX && measured < designWidth;
  return { ref, width: narrow ? Math.max(MIN_CHART_PX, Math.floor(measured)) : designWidth, narrow };
}
