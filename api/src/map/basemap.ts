import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { basemapAttribution, GSHHG_DIR, GSHHG_PACKAGE, INITIAL_VIEW, PLACE_NAMES_CATALOG, placeNamesCatalog, waterSource } from '@norma/workers/map';
import type { Config } from '../config';
import { ApiError, errorBody } from '../http/errors';
import { startWorkerThread } from '../http/worker-thread';
import { parseRange } from '../video/stream';

export const BASEMAP_PATH = '/api/v1/map/basemap.pmtiles';

const built = new Map<string, Promise<string>>();

/** What the built-in archive carries besides land and borders: town names and water, where their packages are installed. */
interface BasemapData {
  catalog: string | null;
  water: string | null;
}

/** The built-in archive's file name: one per variant, `basemap[-places][-gshhs].pmtiles` (`-gshhs`: GSHHG land, lakes and rivers; an older `-water` file had Natural Earth land and is not reused). */
export const basemapFileName = ({ catalog, water }: BasemapData) => `basemap${catalog ? '-places' : ''}${water ? '-gshhs' : ''}.pmtiles`;

/**
 * The basemap file: the operator's (NORMA_BASEMAP) or the built-in one, made from Natural Earth
 * (with GSHHG land, rivers and lakes where Debian's gmt-gshhg-high is installed, and GeoNames' Russian
 * place names where libgeonames-common is) on first use into DATA_DIR/map/ and kept there. The
 * build takes seconds, so it runs on a thread of its own (threads/basemap-thread.ts) while this one
 * answers other calls; calls that come meanwhile wait for the same build. Each variant has its own
 * file name, so names and water appear once a package is installed, without deleting anything.
 */
export function basemapFile(config: Pick<Config, 'basemapFile' | 'dataDir'>): Promise<string> {
  if (config.basemapFile) return Promise.resolve(config.basemapFile);
  const data = { catalog: placeNamesCatalog(), water: waterSource() };
  const file = join(config.dataDir, 'map', basemapFileName(data));
  let pending = built.get(file);
  if (!pending) {
    pending = existsSync(file) ? Promise.resolve(file) : buildOffThread(file, data);
    built.set(file, pending);
    // A failed build is tried again by the next call.
    pending.catch(() => built.delete(file));
  }
  return pending;
}

async function buildOffThread(file: string, data: BasemapData): Promise<string> {
  if (!data.catalog)
    console.warn(
      `[api] подложка карты собирается без названий населённых пунктов: нет каталога ${PLACE_NAMES_CATALOG} (пакет Debian libgeonames-common; docs/map.md «Подложка»)`,
    );
  if (!data.water)
    console.warn(`[api] подложка карты собирается без рек и озёр: нет данных GSHHG в ${GSHHG_DIR} (пакет Debian ${GSHHG_PACKAGE}; docs/map.md «Подложка»)`);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.part`;
  const thread = startWorkerThread<{ id: number; error?: string }>(new URL('../threads/basemap-thread.ts', import.meta.url), 'basemap thread');
  try {
    const reply = await thread.send({ file: temp, ...data });
    if (reply.error) throw new Error(`Подложка карты не собрана: ${reply.error}`);
  } finally {
    thread.close();
  }
  renameSync(temp, file);
  return file;
}

/** Serves the archive with HTTP Range (the pmtiles client reads it in ranges): 206, 200, 304 or 416. */
export async function basemapResponse(config: Pick<Config, 'basemapFile' | 'dataDir'>, request: Request): Promise<Response> {
  const file = await basemapFile(config);
  let info;
  try {
    info = statSync(file);
  } catch {
    return Response.json(errorBody('not_found', 'Файл подложки карты не найден'), { status: 404 });
  }
  const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
  const headers = new Headers({ 'accept-ranges': 'bytes', etag, 'content-type': 'application/vnd.pmtiles', 'cache-control': 'public, max-age=3600' });
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const body = Bun.file(file);
  const rangeHeader = request.headers.get('range');
  if (rangeHeader) {
    const range = parseRange(rangeHeader, info.size);
    if (range === 'unsatisfiable') {
      headers.set('content-range', `bytes */${info.size}`);
      headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(errorBody('range_not_satisfiable', `Диапазон вне файла (размер ${info.size} байт)`)), { status: 416, headers });
    }
    if (range) {
      headers.set('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      headers.set('content-length', String(range.end - range.start + 1));
      return new Response(body.slice(range.start, range.end + 1), { status: 206, headers });
    }
  }
  headers.set('content-length', String(info.size));
  return new Response(body, { status: 200, headers });
}

/** Sea, lakes and rivers: one colour, so that a river's mouth and a lake's shore read as one water. */
const WATER = '#aad3df';

/**
 * Rivers (WDBII classes, water.ts): major ones (1) widest, the banks of wide rivers (0) hairlines,
 * widening with the zoom — under a pixel on the world map, a few pixels in a city.
 */
const riversLayer = {
  id: 'rivers',
  type: 'line',
  source: 'basemap',
  'source-layer': 'rivers',
  layout: { 'line-cap': 'round', 'line-join': 'round' },
  paint: {
    'line-color': WATER,
    'line-width': [
      'interpolate',
      ['linear'],
      ['zoom'],
      3,
      ['match', ['get', 'level'], 1, 0.8, 0.5],
      8,
      ['match', ['get', 'level'], 1, 1.6, 2, 1.2, 0.8],
      12,
      ['match', ['get', 'level'], 1, 4, 2, 3, 3, 2, 1],
      16,
      ['match', ['get', 'level'], 1, 10, 2, 7, 3, 4, 1.5],
    ],
  },
};

/**
 * Town names: Russian, in the app's own Montserrat. The style has no `glyphs` URL, so maplibre draws
 * the letters itself from the page's web font (TinySDF) — nothing is fetched for them. Larger towns
 * are placed first (`symbol-sort-key`) and in larger type; overlapping labels are dropped.
 */
const placesLayer = {
  id: 'places',
  type: 'symbol',
  source: 'basemap',
  'source-layer': 'places',
  layout: {
    'text-field': ['get', 'name'],
    'text-font': ['Montserrat'],
    'text-size': ['match', ['get', 'rank'], 1, 17, 2, 15, 3, 13, 12],
    'symbol-sort-key': ['get', 'rank'],
    'text-max-width': 12,
    'text-padding': 4,
  },
  paint: { 'text-color': '#1d2430', 'text-halo-color': '#f4f1ea', 'text-halo-width': 1.5, 'text-halo-blur': 0.5 },
};

/**
 * The maplibre style of the basemap: a `pmtiles://` vector source on our own origin, land over a
 * sea background, lakes and rivers in the sea's colour (layers `lakes` and `rivers`, where the
 * archive has them), country borders and town names (layer `places`, where the archive has it). No
 * glyphs or sprites are served: labels are drawn from the page's font. Layers read `land`, `lakes`,
 * `rivers`, `borders` and `places`; an operator's archive should use those names or bring its own
 * style.
 */
function mapStyle(origin: string, attribution: string) {
  return {
    version: 8,
    name: 'Norma',
    center: [INITIAL_VIEW.lon, INITIAL_VIEW.lat],
    zoom: INITIAL_VIEW.zoom,
    sources: { basemap: { type: 'vector', url: `pmtiles://${origin}${BASEMAP_PATH}`, attribution } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': WATER } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1ea' } },
      { id: 'lakes', type: 'fill', source: 'basemap', 'source-layer': 'lakes', paint: { 'fill-color': WATER } },
      riversLayer,
      {
        id: 'borders',
        type: 'line',
        source: 'basemap',
        'source-layer': 'borders',
        paint: { 'line-color': '#9a8fa6', 'line-width': 1, 'line-dasharray': [3, 2] },
      },
      placesLayer,
    ],
  };
}

/**
 * The style the editor gets: the operator's (NORMA_MAP_STYLE, for an archive of another layer
 * schema, e.g. an OpenStreetMap extract with streets) with `{origin}` replaced by the server's
 * address, or the built-in one. Read on every request: the operator may edit it without a restart.
 */
export function editorStyle(config: Pick<Config, 'mapStyleFile' | 'basemapFile'>, origin: string): unknown {
  // GSHHG and GeoNames are credited only when the built-in archive carries their data.
  if (!config.mapStyleFile) {
    const builtIn = !config.basemapFile;
    return mapStyle(origin, basemapAttribution(builtIn && placeNamesCatalog() !== null, builtIn && waterSource() !== null));
  }
  let text: string;
  try {
    text = readFileSync(config.mapStyleFile, 'utf8');
  } catch {
    throw new ApiError(500, 'map_style_unreadable', 'Файл стиля карты (NORMA_MAP_STYLE) не найден или не читается');
  }
  try {
    return JSON.parse(text.replaceAll('{origin}', origin)) as unknown;
  } catch {
    throw new ApiError(500, 'map_style_invalid', 'Файл стиля карты (NORMA_MAP_STYLE) — не JSON');
  }
}
