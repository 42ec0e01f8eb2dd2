import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** Below this container width a chart is laid out for the screen (a phone), not scaled down. */
export const NARROW_CHART_PX = 640;
/** The narrowest layout a chart gets (a 320 px phone minus the page's padding). */
const MIN_CHART_PX = 260;

/** The width a chart is laid out for in a box `measured` CSS pixels wide (0: not measured yet). */
export function chartLayoutWidth(measured: number, designWidth: number): number {
  const narrow = measured > 0 && measured < NARROW_CHART_PX && measured < designWidth;
  return narrow ? Math.max(MIN_CHART_PX, Math.floor(measured)) : designWidth;
}

/**
 * The width a chart lays itself out for. A wide container gets the chart's design width, scaled
 * to fit as before (desktop, print, PDF). A narrow one (a phone) gets its own width in SVG units,
 * so that 1 unit is 1 CSS pixel and 11–13 px labels stay 11–13 px instead of shrinking to 4–5 px.
 *
 * The box is measured by a ResizeObserver only (issue 47): observing costs nothing, and its first
 * report comes with the browser's own layout of the frame, so no chart forces a layout of the page
 * while a big report is being put into it (reading `clientWidth` in a layout effect did, once per
 * chart). The state is the layout width, not the box's: on a wide screen it stays the design width
 * and the chart is not rendered again; on a phone it changes before the frame is painted.
 */
export function useChartWidth(designWidth: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(designWidth);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)!;
      const measured = box.contentBoxSize?.[0]?.inlineSize ?? box.contentRect.width;
      // Rendered before this frame is painted: a phone never sees the chart drawn for a wide box.
      flushSync(() => setWidth(chartLayoutWidth(measured, designWidth)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [designWidth]);
  return { ref, width, narrow: width !== designWidth };
}
