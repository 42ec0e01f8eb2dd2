import { useSyncExternalStore } from 'react';
import type { MarkupSession } from './session';

/**
 * One value of the markup session, followed as it changes: the calling component draws again only
 * when this value does (Object.is), not on every change of the session — a key press at 10,000 rows
 * redraws the parts that show what it changed, not the whole screen. `read` returns a primitive or
 * an object the session keeps until it changes (its `rows`, `stamps`), never a new one per call.
 */
export function useSessionValue<T>(session: MarkupSession, read: (session: MarkupSession) => T): T {
  return useSyncExternalStore(session.subscribe, () => read(session));
}
