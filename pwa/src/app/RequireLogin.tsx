import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Redirect } from 'wouter';
import { login } from '../state/login';

/** Workspace screens need a signed-in user; others are sent to the login screen. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const state = useSnapshot(login);
  if (!state.checked) return <p className="screen muted">Проверяем вход…</p>;
  if (!state.loggedIn) return <Redirect to="/login" />;
  return <>{children}</>;
}
