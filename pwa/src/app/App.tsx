import { useEffect } from 'react';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { settlePendingSignOut } from '../offline/signOut';
import { askPersistentStorage, startOutboxSync } from '../state/outboxSync';
import { loadInstance } from '../state/instance';
import { followSignOutInOtherTabs, refreshCurrentUser } from '../state/login';
import { Toasts } from '../ui/Toasts';
import { Header, OfflineBanner } from './Header';
import { RequireLogin } from './RequireLogin';
import { routes } from './routes';

function NotFound() {
  return (
    <section className="screen">
      <h1>Страница не найдена</h1>
      <p>
        Такого адреса нет. <a href="#/">На главную</a>
      </p>
    </section>
  );
}

let sessionStarted = false;

/**
 * The page's session work, once: the sign-in check (whoami) and the installation's description.
 * src/main.tsx starts it before the first render, so they leave with the app's first script, not
 * after React's first commit — on a 4× slower CPU that commit came 0.75 s after the script had
 * loaded, and every private screen waits for the check (issue 47, markup cold open). Where the app
 * hydrates the prerendered landing page, App's effect starts it after hydration instead: an answer
 * arriving mid-hydration would change the header from the prerendered one (a hydration mismatch).
 */
export function startSession() {
  if (sessionStarted) return;
  sessionStarted = true;
  // A sign-out made without a network ends the server session as soon as there is one, even if the app then asks nothing.
  void settlePendingSignOut();
  window.addEventListener('online', () => void settlePendingSignOut());
  followSignOutInOtherTabs();
  void refreshCurrentUser().then((signedIn) => {
    // Queued saves, drafts and kept videos must survive storage pressure on a field device.
    if (signedIn) void askPersistentStorage();
  });
  void loadInstance();
  startOutboxSync();
}

export function App() {
  useEffect(startSession, []);
  return (
    <Router hook={useHashLocation}>
      <Header />
      <OfflineBanner />
      <main>
        <Switch>
          {routes.map(({ path, screen: Screen, private: needsLogin }) => (
            <Route key={path} path={path}>
              {(params) =>
                needsLogin ? (
                  <RequireLogin>
                    <Screen {...params} />
                  </RequireLogin>
                ) : (
                  <Screen {...params} />
                )
              }
            </Route>
          ))}
          <Route component={NotFound} />
        </Switch>
      </main>
      <Toasts />
    </Router>
  );
}
