import { useCallback, useEffect, useRef, useState } from 'react';
import type { PoseBackend, PoseDetector, PosedHuman } from './pose-detector';

export interface BrowserPeople {
  people: PosedHuman[];
  backend: PoseBackend;
  milliseconds: number;
}

/**
 * People on a captured frame found in the browser by MoveNet (pose-detector.ts): the detector is
 * loaded on the first request (its code and model files only then), kept for the next frames and
 * closed with the screen.
 */
export function useBrowserPeople() {
  const detector = useRef<Promise<PoseDetector> | null>(null);
  const [result, setResult] = useState<BrowserPeople | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(
    () => () => {
      void detector.current?.then(
        (d) => d.close(),
        () => {},
      );
      detector.current = null;
    },
    [],
  );

  const find = useCallback(async (picture: HTMLCanvasElement) => {
    setBusy(true);
    setError(null);
    try {
      detector.current ??= import('./pose-detector').then(({ PoseDetector }) => PoseDetector.open());
      const opened = await detector.current.catch((err: unknown) => {
        detector.current = null;
        throw err;
      });
      const found = await opened.detect(picture);
      setResult({ ...found, backend: opened.backend });
    } catch (err) {
      setResult(null);
      setError(`Поиск людей в браузере не удался: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  }, []);

  const reset = useCallback(() => {
    setResult(null);
    setError(null);
  }, []);

  return { result, busy, error, find, reset };
}
