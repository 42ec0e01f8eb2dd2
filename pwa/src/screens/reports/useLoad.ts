import { useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/**
 * Loads a report once per `key`. The API client has already shown a failure to the user; the
 * screen also says it in place, so an empty report is never mistaken for a result.
 */
export function useLoad<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    setResult({ state: 'loading' });
    load().then(
      (data) => live && setResult({ state: 'ready', data }),
      (error: unknown) => live && setResult({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
    // `load` is rebuilt every render; `key` says when the request really changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return result;
}
