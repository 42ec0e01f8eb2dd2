import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { basemapAttribution, INITIAL_VIEW, PLACE_NAMES_CATALOG, placeNamesCatalog } from '@norma/workers/map';
import type { Config } from '../config';
import { ApiError, errorBody } from '../http/errors';
import { startWorkerThread } from '../http/worker-thread';
import { parseRange } from '../video/stream';

export const BASEMAP_PATH = '/api/v1/map/basemap.pmtiles';

const built = new Map<string, Promise<string>>();

/**
 * The basemap file: the operator's (NORMA_BASEMAP) or the built-in one, made from Natural Earth
 * (and GeoNames' Russian place names where Debian's libgeonames-common is installed) on first use
 * into DATA_DIR/map/ and kept there. The build takes seconds, so it runs on a thread of its own
 * (threads/basemap-thread.ts) while this one answers other calls; calls that come meanwhile wait
 * for the same build. The two variants have their own file names, so names appear once the package
 * is installed, without deleting anything.
 */
export function basemapFile(config: Pick<Config, 'basemapFile' | 'dataDir'>): Promise<string> {
  if (config.basemapFile) return Promise.resolve(config.basemapFile);
  const catalog = placeNamesCatalog();
  const file = join(config.dataDir, 'map', catalog ? 'basemap-places.pmtiles' : 'basemap.pmtiles');
  let pending = built.get(file);
  if (!pending) {
    pending = existsSync(file) ? Promise.resolve(file) : buildOffThread(file, catalog);
    built.set(file, pending);
    // A failed build is tried again by the next call.
    pending.catch(() => built.delete(file));
  }
  return pending;
}

async function buildOffThread(file: string, catalog: string | null): Promise<string> {
  if (!catalog)
    console.warn(
      `[api] подложка карты собирается без названий населённых пунктов: нет каталога ${PLACE_NAMES_CATALOG} (пакет Debian libgeonames-common; docs/map.md «Подложка»)`,
    );
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.part`;
  const thread = startWorkerThread<{ id: number; error?: string }>(new URL('../threads/basemap-thread.ts', import.meta.url), 'basemap thread');
  try {
    const reply = await thread.send({ file: temp, catalog });
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
 * sea background, country borders and town names (layer `places`, where the archive has it). No
 * glyphs or sprites are served: labels are drawn from the page's font. Layers read `land`,
 * `borders` and `places`; an operator's archive should use those names or bring its own style.
 */
function mapStyle(origin: string, attribution: string) {
  return {
    version: 8,
    name: 'Norma',
    center: [INITIAL_VIEW.lon, INITIAL_VIEW.lat],
    zoom: INITIAL_VIEW.zoom,
    sources: { basemap: { type: 'vector', url: `pmtiles://${origin}${BASEMAP_PATH}`, attribution } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#cfe3f0' } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1ea' } },
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
  // GeoNames is credited only when the built-in archive carries its names.
  if (!config.mapStyleFile) return mapStyle(origin, basemapAttribution(!config.basemapFile && placeNamesCatalog() !== null));
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
