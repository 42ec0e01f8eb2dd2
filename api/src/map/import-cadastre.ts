/**
 * Loads cadastral parcels into the local registry from a GeoJSON file (docs/map.md «ГИС и кадастр»):
 *   DATA_DIR=data bun api/src/map/import-cadastre.ts parcels.geojson
 * Each feature: a Polygon with its number in `cadastral_number` (or `number`, `cad_num`). The parcels go
 * into the shared registry that every organisation reads (an organisation's own import, over the API,
 * goes into its own registry and takes precedence there).
 */
import { readFileSync } from 'node:fs';
import { bootstrap } from '../boot';
import { configFromEnv } from '../config';
import { importParcels } from './menus';

const file = process.argv[2];
if (!file) {
  console.error('Укажите файл GeoJSON: bun api/src/map/import-cadastre.ts участки.geojson');
  process.exit(2);
}
const { deps, close } = await bootstrap(configFromEnv());
try {
  const count = await importParcels(deps.db, null, JSON.parse(readFileSync(file, 'utf8')));
  console.log(`Загружено участков: ${count}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
} finally {
  close();
}
