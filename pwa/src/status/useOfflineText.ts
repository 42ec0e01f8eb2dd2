import { useEffect } from 'react';
import { connectivity } from './connectivity';

/**
 * A screen names what keeps working on it without the server; the one offline banner shows that
 * text while the screen is mounted instead of the app's general one.
 */
export function useOfflineText(text: string) {
  useEffect(() => {
    connectivity.screenText = text;
    return () => {
      if (connectivity.screenText === text) connectivity.screenText = null;
    };
  }, [text]);
}
