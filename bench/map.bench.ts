/**
 * Map algorithms and CAD export (issue 15): each algorithm on a 10 km² district of 1,000 blocks
 * (a 3.16 km square of dense housing, 100 m grid), and DXF export of 20,000 features. And the
 * built-in basemap (issue 28): built from Natural Earth land alone (the bare reference) and with
 * GSHHG land, lakes and rivers, as the server builds it where gmt-gshhg-high is installed — time,
 * archive size and peak memory, and their ratios to the reference in the same run.
 *   node_modules/.bin/bun bench/map.bench.ts
 * Each case runs in its own child process, so its peak memory (max RSS) is its own.
 * Writes bench/results/map.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALGO_TAGS,
  BASEMAP_MAX_ZOOM,
  buildBasemap,
  placeNamesCatalog,
  readWater,
  runAlgorithm,
  waterSource,
  writeDxf,
  type AlgoTag,
  type GeoCollection,
} from '../workers/src/map/index.ts';

const fc = (features: GeoCollection['features']): GeoCollection => ({ type: 'FeatureCollection', features });

/** A square district of `side` metres near 59.94° N (dense housing: 100 m blocks). */
function district(sideM: number): GeoCollection {
  const [lon, lat] = [30.3, 59.93];
  const dLat = sideM / 111_320;
  const dLon = sideM / (111_320 * Math.cos((lat * Math.PI) / 180));
  return fc([
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [lon, lat],
            [lon + dLon, lat],
            [lon + dLon, lat + dLat],
            [lon, lat + dLat],
            [lon, lat],
          ],
        ],
      },
      properties: { type: 'area', type_id: 14 },
    },
  ]);
}

const empty = fc([]);
const SIDE_10KM2 = Math.sqrt(10e6);

/** The basemap as the server builds it on first use (api/src/map/basemap.ts), with or without GSHHG's water. */
async function basemapCase(withWater: boolean): Promise<Record<string, unknown>> {
  const source = waterSource();
  if (withWater && !source) return { skipped: 'нет файлов GSHHG (пакет Debian gmt-gshhg-high)' };
  const start = performance.now();
  const water = withWater ? await readWater(source!) : null;
  const readMs = performance.now() - start;
  const catalog = placeNamesCatalog();
  const archive = buildBasemap(BASEMAP_MAX_ZOOM, catalog, water);
  return { ms: performance.now() - start, read_water_ms: readMs, bytes: archive.length, places: catalog !== null };
}

async function runCase(name: string): Promise<Record<string, unknown>> {
  if (name.startsWith('basemap')) return basemapCase(name === 'basemap_gshhs');
  const drawn = district(SIDE_10KM2);
  if (name.startsWith('dxf')) {
    const big = district(8_200);
    const general = runAlgorithm('road_gen_grid', { drawn: big, general: empty }).general;
    const features = [...big.features, ...general.features].slice(0, 20_000);
    const start = performance.now();
    const dxf = writeDxf(fc(features));
    return { features: features.length, ms: performance.now() - start, bytes: dxf.bytes.length };
  }
  const tag = name as AlgoTag;
  // Generators start from the bare district; the tree subdivides the uneven Voronoi blocks; the rest start from the 1,000-block grid.
  if (name === 'baseline') return { ms: 0 };
  const startWith: AlgoTag | null =
    tag === 'road_gen_grid' || tag === 'road_gen_voronoi' ? null : tag === 'road_subdivide' ? 'road_gen_voronoi' : 'road_gen_grid';
  const general = startWith ? runAlgorithm(startWith, { drawn, general: empty }).general : empty;
  const start = performance.now();
  const out = runAlgorithm(tag, { drawn, general });
  return { ms: performance.now() - start, blocks: out.metrics.block_count, road_km: out.metrics.road_length_total_m / 1000, details: out.details };
}

const one = process.argv.indexOf('--one');
if (one >= 0) {
  const result = await runCase(process.argv[one + 1]);
  // maxRSS is in kilobytes.
  console.log(JSON.stringify({ ...result, peak_rss_mb: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const cases: Record<string, unknown> = {};
for (const name of ['baseline', ...ALGO_TAGS, 'dxf_20000', 'basemap_natural_earth', 'basemap_gshhs']) {
  const child = spawnSync(process.execPath, [self, '--one', name], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`${name}: ${child.stderr}`);
  cases[name] = JSON.parse(child.stdout.trim().split('\n').pop()!);
  console.log(name, cases[name]);
}
const out = join(dirname(self), 'results', 'map.json');
mkdirSync(dirname(out), { recursive: true });
const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : `node ${process.version}`;
const reference = cases.basemap_natural_earth as { ms: number; bytes: number; peak_rss_mb: number };
const gshhs = cases.basemap_gshhs as { ms?: number; bytes?: number; peak_rss_mb: number };
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const basemap =
  gshhs.ms === undefined || gshhs.bytes === undefined
    ? { note: 'no GSHHG files: only the Natural Earth basemap was built' }
    : {
        note: `GSHHG land, lakes and rivers against the Natural Earth land basemap built in the same run (zooms 0–${BASEMAP_MAX_ZOOM})`,
        build_ratio: ratio(gshhs.ms, reference.ms),
        bytes_ratio: ratio(gshhs.bytes, reference.bytes),
        peak_rss_ratio: ratio(gshhs.peak_rss_mb, reference.peak_rss_mb),
      };
console.log('basemap', basemap);
writeFileSync(out, JSON.stringify({ name: 'map', date: new Date().toISOString(), runtime, district_km2: 10, cases, basemap }, null, 2) + '\n');
console.log(`written ${out}`);
