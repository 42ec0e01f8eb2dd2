import { writeFileSync } from 'node:fs';
import { buildBasemap, readWater } from '@norma/workers/map';
import { serveThread } from './thread-port';

/*
 * The one-off thread that builds the built-in basemap (workers/src/map/basemap-build.ts): a few seconds of reading
 * GSHHG and tiling that would otherwise hold the thread answering every call.
 */
serveThread<{ id: number; file: string; catalog: string | null; water: string | null }>(async ({ id, file, catalog, water }, post) => {
  try {
    writeFileSync(file, buildBasemap(undefined, catalog, water ? await readWater(water) : null));
    post({ id });
  } catch (err) {
    post({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
