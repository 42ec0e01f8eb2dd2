/**
 * What the build's prerender (src/prerender.tsx) gives pwa/vite.config.ts: the landing page's HTML
 * and head texts. A file of its own, without JSX or the DOM, so the config's typecheck reads only this.
 */
export interface PrerenderedLanding {
  html: string;
  title: string;
  description: string;
  /** The texts index.html carries, replaced by the landing page's. */
  defaults: { title: string; description: string };
}

/** @internal for the build: vite.config.ts loads prerender.tsx through Vite and reads it as this. */
export interface LandingPrerenderer {
  renderLanding(): PrerenderedLanding;
}
