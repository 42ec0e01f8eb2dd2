import { useEffect } from 'react';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { settlePendingSignOut } from '../offline/signOut';
import { askPersistentStorage, startOutboxSync } from '../state/outboxSync';
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

export function App() {
  useEffect(() => {
    // A sign-out made without a network ends the server session as soon as there is one, even if the app then asks nothing.
    void settlePendingSignOut();
    window.addEventListener('online', () => void settlePendingSignOut());
    followSignOutInOtherTabs();
    void refreshCurrentUser().then((signedIn) => {
      // Queued saves, drafts and kept videos must survive storage pressure on a field device.
      if (signedIn) void askPersistentStorage();
    });
    startOutboxSync();
  }, []);
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
