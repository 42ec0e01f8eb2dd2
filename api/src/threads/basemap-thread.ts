/// <reference lib="webworker" />
import { writeFileSync } from 'node:fs';
import { buildBasemap, readWater } from '@norma/workers/map';

/*
 * The one-off thread that builds the built-in basemap (workers/src/map/basemap-build.ts): a few seconds of reading
 * GSHHG and tiling that would otherwise hold the thread answering every call.
 */
declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ id: number; file: string; catalog: string | null; water: string | null }>) => {
  const { id, file, catalog, water } = event.data;
  try {
    writeFileSync(file, buildBasemap(undefined, catalog, water ? await readWater(water) : null));
    self.postMessage({ id });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};

// Messages sent before the handler is set may be lost: the sender waits for this.
self.postMessage({ ready: true });
