/**
 * The landing page ('/') as a visitor who is not signed in sees it before any script has run: the
 * same tree src/main.tsx renders, turned into HTML at build time (pwa/vite.config.ts, plugin
 * norma:prerender-landing) and hydrated in the browser. Only the server renderer is loaded here.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/App';
import { LANDING_META } from './screens/landing/LandingScreen';
import type { PrerenderedLanding } from './prerendered-landing';
import { DEFAULT_DESCRIPTION, DEFAULT_TITLE, pageTitle } from './screens/site/meta';

export function renderLanding(): PrerenderedLanding {
  return {
    html: renderToString(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
    title: pageTitle(LANDING_META.title),
    description: LANDING_META.description,
    defaults: { title: DEFAULT_TITLE, description: DEFAULT_DESCRIPTION },
  };
}
