import { useSyncExternalStore } from 'react';

/**
 * A screen's state kept outside React (as the markup screen's `MarkupSession`): a plain object
 * whose methods change it and then `emit()`; the screen subscribes with `useSession` and draws
 * again on every `revision`. Its transitions run and are tested without React.
 */
export class SessionStore {
  revision = 0;
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getRevision = () => this.revision;

  /** Tells the subscribers that the state changed. */
  protected emit() {
    this.revision++;
    for (const listener of this.listeners) listener();
  }
}

/** Draws the calling component again whenever `session` changes; returns the session. */
export function useSession<S extends SessionStore>(session: S): S {
  useSyncExternalStore(session.subscribe, session.getRevision);
  return session;
}
