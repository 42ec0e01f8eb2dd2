import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildBasemap, INITIAL_VIEW } from '@norma/workers/map';
import type { Config } from '../config';
import { ApiError, errorBody } from '../http/errors';
import { parseRange } from '../video/stream';

export const BASEMAP_PATH = '/api/v1/map/basemap.pmtiles';

const built = new Map<string, string>();

/**
 * The basemap file: the operator's (NORMA_BASEMAP) or the built-in one, made from Natural Earth on
 * first use into DATA_DIR/map/ (a fraction of a second) and kept there.
 */
export function basemapFile(config: Pick<Config, 'basemapFile' | 'dataDir'>): string {
  if (config.basemapFile) return config.basemapFile;
  const file = join(config.dataDir, 'map', 'basemap.pmtiles');
  if (built.get(file) === file) return file;
  try {
    statSync(file);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.part`;
    writeFileSync(temp, buildBasemap());
    renameSync(temp, file);
  }
  built.set(file, file);
  return file;
}

/** Serves the archive with HTTP Range (the pmtiles client reads it in ranges): 206, 200, 304 or 416. */
export async function basemapResponse(config: Pick<Config, 'basemapFile' | 'dataDir'>, request: Request): Promise<Response> {
  const file = basemapFile(config);
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
 * The maplibre style of the basemap: a `pmtiles://` vector source on our own origin, land over a
 * sea background and country borders. No text layers: no glyphs are served (STACK-FACTS «Maps»).
 * Layers read `land` and `borders`; an operator's archive should use those names or bring its own style.
 */
function mapStyle(origin: string) {
  return {
    version: 8,
    name: 'Norma',
    center: [INITIAL_VIEW.lon, INITIAL_VIEW.lat],
    zoom: INITIAL_VIEW.zoom,
    sources: { basemap: { type: 'vector', url: `pmtiles://${origin}${BASEMAP_PATH}`, attribution: 'Natural Earth' } },
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
    ],
  };
}

/**
 * The style the editor gets: the operator's (NORMA_MAP_STYLE, for an archive of another layer
 * schema, e.g. an OpenStreetMap extract with streets) with `{origin}` replaced by the server's
 * address, or the built-in one. Read on every request: the operator may edit it without a restart.
 */
export function editorStyle(config: Pick<Config, 'mapStyleFile'>, origin: string): unknown {
  if (!config.mapStyleFile) return mapStyle(origin);
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
