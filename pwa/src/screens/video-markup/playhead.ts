import { useSyncExternalStore } from 'react';

/**
 * The video's position, published on every animation frame while playing. Kept apart from React
 * state so the timeline's playhead moves at 60 fps without re-rendering the screen.
 */
export class Playhead {
  time = 0;
  private listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
  set(time: number) {
    if (time === this.time) return;
    this.time = time;
    for (const listener of this.listeners) listener();
  }
}

/** The playhead rounded to `step` seconds, for text that need not change 60 times a second. */
export function usePlayheadSeconds(playhead: Playhead, step = 1): number {
  return useSyncExternalStore(playhead.subscribe, () => Math.floor(playhead.time / step) * step);
}
