import { useMemo, type RefObject } from 'react';
import type { ActionContext } from './actions';
import { SPEEDS, togglePlayback } from './Player';
import type { Playhead } from './playhead';

export type PlayerControls = ActionContext['player'];

/** What the actions, the timeline and the panels do with the video: read and move the position, play, change the speed. */
export function usePlayerControls(videoRef: RefObject<HTMLVideoElement | null>, playhead: Playhead, duration: number): PlayerControls {
  return useMemo(
    () => ({
      time: () => videoRef.current?.currentTime ?? playhead.time,
      seek: (seconds: number) => {
        const video = videoRef.current;
        if (video) video.currentTime = Math.max(0, Math.min(video.duration || seconds, seconds));
        playhead.set(Math.max(0, seconds));
      },
      togglePlay: () => {
        if (videoRef.current) togglePlayback(videoRef.current);
      },
      stepRate: (direction: 1 | -1) => {
        const video = videoRef.current;
        if (!video) return;
        const index = SPEEDS.indexOf(video.playbackRate);
        video.playbackRate = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (index < 0 ? 2 : index) + direction))]!;
      },
      frame: () => 0.1,
      duration: () => videoRef.current?.duration || duration,
    }),
    [videoRef, playhead, duration],
  );
}
