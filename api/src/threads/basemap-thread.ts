/// <reference lib="webworker" />
import { writeFileSync } from 'node:fs';
import { buildBasemap } from '@norma/workers/map';

/*
 * The one-off thread that builds the built-in basemap (map/basemap.ts): a few seconds of tiling
 * that would otherwise hold the thread answering every call.
 */
declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; file: string; catalog: string | null }>) => {
  const { id, file, catalog } = event.data;
  try {
    writeFileSync(file, buildBasemap(undefined, catalog));
    self.postMessage({ id });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};

// Messages sent before the handler is set may be lost: the sender waits for this.
self.postMessage({ ready: true });
