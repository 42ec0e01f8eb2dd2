import { startTransition, useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/**
 * Loads a report once per `key`. The API client has already shown a failure to the user; the
 * screen also says it in place, so an empty report is never mistaken for a result. `inPage`: the
 * data for the first key that came with the page itself (a shared report's link): ready in the
 * first render, without a loading render or a request. `load` gets a signal that is aborted when its
 * key is left (another key, or the screen closed): a load that can stop early listens to it.
 */
export function useLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>, inPage?: T): Loaded<T> {
  const [given] = useState(() => (key !== null && inPage !== undefined ? { key, result: { state: 'ready', data: inPage } as Loaded<T> } : null));
  const [result, setResult] = useState<Loaded<T>>(given?.result ?? { state: 'loading' });
  useEffect(() => {
    if (key === null) return;
    // The same object as the first state: React renders nothing for it.
    if (key === given?.key) return setResult(given.result);
    let live = true;
    const stop = new AbortController();
    setResult({ state: 'loading' });
    load(stop.signal).then(
      // A transition: React builds a big report (a month's statement) in slices, answering input and
      // painting between them, instead of in one long task (issue 47).
      (data) => live && startTransition(() => setResult({ state: 'ready', data })),
      (error: unknown) => live && setResult({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
      stop.abort();
    };
    // `load` is rebuilt every render; `key` says when the request really changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return result;
}
