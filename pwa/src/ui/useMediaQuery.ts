import { useEffect, useState } from 'react';

/**
 * A tablet or a phone (up to 1200 px wide, as the markup screen's side panels): the markup screen
 * lays itself out for a finger there — a compact app header, the toolbar's essentials with the rest
 * under «Ещё», the video and every operation button on one screen (docs/layout.md). A computer's
 * window (1280 px and wider) keeps the full header and toolbar.
 */
export const TOUCH_LAYOUT = '(max-width: 1200px)';
/** A phone: every signed-in screen takes the compact app header there (Header.tsx), the screen's own work the height. */
export const PHONE_LAYOUT = '(max-width: 600px)';

const matches = (query: string) => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/** Whether the media query matches now; follows it as the window turns or is resized. */
export function useMediaQuery(query: string): boolean {
  const [matched, setMatched] = useState(() => matches(query));
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatched(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matched;
}
