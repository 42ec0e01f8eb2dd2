import './fonts.css';
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, startSession } from './app/App';
import { loadScreenAt, startScreenWorkAt } from './app/routes';
import { registerServiceWorker } from './app/serviceWorker';
import { guardRequestsWhileSignOutPending } from './offline/signOut';
import { resetPageMeta } from './screens/site/meta';

// Before the first request: a sign-out made without a network reaches the server before anything else (offline/signOut.ts).
guardRequestsWhileSignOutPending();
// A screen's own work that needs neither React nor its code (a statement's computation) starts now, beside the app's start.
startScreenWorkAt(location.hash);
// The screen's code too, beside the sign-in check: a screen whose code is here by its first render is
// drawn at once, not after a «Загрузка…» that React keeps up for 300 ms (issue 47: a statement's
// chunks, preloaded by the page's first script, were asked for only then). A failed load is tried
// again by the screen, which shows the error.
const screenCode = loadScreenAt(location.hash);
screenCode.catch(() => undefined);

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// index.html holds the landing page rendered at build time (src/prerender.tsx; docs/site.md
// «Быстрая главная»). Its first client render is the same HTML only on '/' (wouter's hash location:
// '', '#' and '#/' are '/') and online (offline the header shows the banner): then it is hydrated.
// Anywhere else the prerendered page is dropped (the route-preload script kept it hidden) and the
// app renders from scratch, with index.html's own title and description. Either runs as a
// transition: React then works in slices of a few milliseconds instead of one long task that would
// hold up a phone's main thread (Lighthouse's total blocking time; the app's first render was one
// task of 370 ms on a 4× slower CPU, issue 47); a click or a key press on the page before hydration
// is done hydrates at once and is not lost.
const atLanding = `/${location.hash.replace(/^#?\/?/, '')}` === '/' && navigator.onLine !== false;
// The sign-in check and the installation's description before the first render (App.tsx startSession),
// except where the landing page is hydrated: then App's effect starts them once it is.
if (!(root.hasAttribute('data-prerendered') && atLanding)) startSession();
function render() {
  if (root.hasAttribute('data-prerendered') && atLanding) {
    startTransition(() => {
      hydrateRoot(root, app);
    });
    return;
  }
  if (root.hasAttribute('data-prerendered')) {
    root.replaceChildren();
    root.removeAttribute('data-prerendered');
    resetPageMeta();
  }
  const created = createRoot(root);
  startTransition(() => created.render(app));
}
// A page that links its screen's chunks itself (the shared report's link, <html data-screen-links>)
// has them on the way already: the first render waits for them and draws the screen, not «Загрузка…».
// Failed, the screen's own load tries again and says so.
if (document.documentElement.hasAttribute('data-screen-links')) void screenCode.then(render, render);
else render();
registerServiceWorker();
