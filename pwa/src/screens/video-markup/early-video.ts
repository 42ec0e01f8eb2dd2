/**
 * The markup screen's video element, made when the route starts (routes.tsx `start`) rather than when
 * the player first renders: the browser fetches the recording's index and decodes its first frame
 * while the app's code runs. On a 4× slower CPU the element appeared 1.5 s after navigation and its
 * first frame 0.7 s later, after the rows (issue 47, markup cold open). The player adopts it.
 */
let early: HTMLVideoElement | null = null;

/** A fresh player element for `src`: loads at once, muted (so a later play() is allowed), inline on phones. */
export function makeVideo(src: string): HTMLVideoElement {
  const video = document.createElement('video');
  video.preload = 'auto';
  video.muted = true;
  video.playsInline = true;
  video.src = src;
  return video;
}

/** Starts loading `src` now, once per page load. */
export function startVideo(src: string) {
  if (early || typeof document === 'undefined') return;
  early = makeVideo(src);
}

/**
 * The element started for `src`, once; null when none was started for it or its load failed (e.g.
 * refused before the sign-in check) — the player then makes its own and shows that one's error.
 */
export function takeVideo(src: string): HTMLVideoElement | null {
  const video = early;
  early = null;
  if (!video) return null;
  if (video.error || new URL(video.src, location.href).href !== new URL(src, location.href).href) {
    release(video);
    return null;
  }
  return video;
}

/** Stops an element's download and frees its decoder. */
export function release(video: HTMLVideoElement) {
  video.removeAttribute('src');
  video.load();
}
