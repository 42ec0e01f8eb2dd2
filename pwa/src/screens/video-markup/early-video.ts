/**
 * The markup screen's video element, made before the player first renders: the browser fetches the
 * recording's index and decodes its first frame while the app's code comes and runs. On a 4× slower
 * CPU the element appeared 1.5 s after navigation and its first frame 0.7 s later, after the rows
 * (issue 47, markup cold open). Opened at a markup address, the page's first script makes it before
 * the app's code has come (pwa/vite.config.ts, route-preload); else the route's start (routes.tsx)
 * does. The player adopts it.
 */
let early: HTMLVideoElement | null = null;

declare global {
  interface Window {
    /** The element index.html's route-preload script made for the address's video, until taken. */
    __normaEarlyVideo?: HTMLVideoElement;
  }
}

/** A fresh player element for `src`: loads at once, muted (so a later play() is allowed), inline on phones. */
export function makeVideo(src: string): HTMLVideoElement {
  const video = document.createElement('video');
  video.preload = 'auto';
  video.muted = true;
  video.playsInline = true;
  video.src = src;
  return video;
}

/** Starts loading `src` now (or takes the page's first script's element for it), once per page load. */
export function startVideo(src: string) {
  if (early || typeof document === 'undefined') return;
  const made = window.__normaEarlyVideo;
  delete window.__normaEarlyVideo;
  if (made && sameUrl(made.src, src)) early = made;
  else {
    if (made) release(made);
    early = makeVideo(src);
  }
}

const sameUrl = (a: string, b: string) => new URL(a, location.href).href === new URL(b, location.href).href;

/**
 * The element started for `src`, once; null when none was started for it or its load failed (e.g.
 * refused before the sign-in check) — the player then makes its own and shows that one's error.
 */
export function takeVideo(src: string): HTMLVideoElement | null {
  const video = early;
  early = null;
  if (!video) return null;
  if (video.error || !sameUrl(video.src, src)) {
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
