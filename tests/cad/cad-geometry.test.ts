import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadDistrict, featureCollection as fc } from '../../workers/test-support/drawing';
// Test-only LibreDWG reader (GPL, devDependency): what AutoCAD-family DWG readers take from the file.
import { readDwg } from '../../workers/test-support/dwg-read-back';
import { CAD_SUPPORT_DIR, librecad, PYTHON_WITH_EZDXF } from '../support/cad-tools';
import { ALGO_TAGS, crsOfKind, defaultCrs, planCad, runAlgorithm, writeDwg, writeDxf, type AlgoTag, type GeoCollection } from '@norma/workers/map';

/*
 * Issue 46, findings 5 and 7: where the drawing's labels and circles fall in every supported grid,
 * where readers open the drawing, and the same file for the same drawing after any algorithm.
 * The reference for label points is independent of our code: ezdxf reads the exported DXF and the
 * centroid of each block is computed exactly (rational arithmetic) from the file's own vertices
 * (tests/support/ezdxf-centres.py); zone centres come from GDAL projecting the zone's polygon
 * through the .prj written beside the file.
 */

/** The CAD tests' district (workers/test-support/drawing.ts): two territories, «улица Ленина», «Школа № 1». */
const drawn = cadDistrict();
const crs = defaultCrs(drawn)!;
const grid = runAlgorithm('road_gen_grid', { drawn, general: fc([]), crs });
const cover = runAlgorithm('block_min_circle_cover', { drawn, general: grid.general, crs });
const drawing = fc([...drawn.features, ...cover.general.features]);

let dir: string;
const path = (name: string) => join(dir, name);

interface Centres {
  blocks: number[][];
  labels: Array<{ text: string; at: number[] }>;
  circles: Array<{ layer: string; center: number[]; radius: number }>;
  extmin: number[];
  extmax: number[];
  vport: { center: number[]; target: number[]; height: number; ratio: number } | null;
}
const centres = (file: string) =>
  JSON.parse(execFileSync(PYTHON_WITH_EZDXF, [join(CAD_SUPPORT_DIR, 'ezdxf-centres.py'), file], { encoding: 'utf8' })) as Centres;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'norma-cad-geometry-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('labels and circles where they belong, in every grid (issue 46, finding 5)', () => {
  for (const kind of ['sk42', 'utm', 'local'] as const)
    it(`${kind}: every block label within 1 cm of its block's exact centroid, zone centres within 1 mm of GDAL's`, () => {
      const reference = crsOfKind(kind, crs.lon, crs.lat);
      const dxf = writeDxf(drawing, cover.info, () => {}, reference);
      writeFileSync(path(`${kind}.dxf`), dxf.bytes);
      writeFileSync(path(`${kind}.prj`), dxf.projection.wkt);
      const read = centres(path(`${kind}.dxf`));
      expect(read.blocks.length).toBeGreaterThan(50);
      expect(read.labels).toHaveLength(read.blocks.length);
      const distances = read.labels.map(({ at }) => read.blocks.map((c) => Math.hypot(c[0] - at[0], c[1] - at[1])));
      const offsets = distances.map((d) => Math.min(...d));
      expect(Math.max(...offsets)).toBeLessThan(0.01);
      // Each block has its own label: the nearest centroids are all different.
      const nearest = distances.map((d, i) => d.indexOf(offsets[i]));
      expect(new Set(nearest).size).toBe(read.blocks.length);

      // Zones: the GeoJSON polygon projected by GDAL through the .prj, its exact centroid against the circle's centre.
      const zones = drawing.features.filter((f) => f.properties.type === 'zone');
      const rings = zones.map((z) => {
        const lonLat = (z.geometry.coordinates as number[][][])[0];
        const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', path(`${kind}.prj`), '-output_xy'], {
          input: lonLat.map((p) => `${p[0]} ${p[1]}`).join('\n') + '\n',
          encoding: 'utf8',
        });
        return out
          .trim()
          .split('\n')
          .map((line) => line.trim().split(/\s+/).map(Number).slice(0, 2));
      });
      writeFileSync(path(`${kind}-rings.json`), JSON.stringify(rings));
      const expected = JSON.parse(
        execFileSync(PYTHON_WITH_EZDXF, [join(CAD_SUPPORT_DIR, 'ezdxf-centres.py'), '--rings', path(`${kind}-rings.json`)], { encoding: 'utf8' }),
      ) as number[][];
      const circles = read.circles.filter((c) => c.layer.startsWith('Зоны_'));
      expect(circles).toHaveLength(zones.length);
      circles.forEach((c, i) => expect(Math.hypot(c.center[0] - expected[i][0], c.center[1] - expected[i][1]), `zone ${i}`).toBeLessThan(0.001));
    });
});

describe('the file opens on the drawing (issue 46, finding 7)', () => {
  it('$EXTMIN/$EXTMAX bound every entity, and the *ACTIVE view (target + centre) is their middle', () => {
    const reference = crsOfKind('sk42', crs.lon, crs.lat);
    writeFileSync(path('open.dxf'), writeDxf(drawing, cover.info, () => {}, reference).bytes);
    const read = centres(path('open.dxf'));
    const plan = planCad(drawing, cover.info, () => {}, reference);
    const xs = plan.entities.flatMap((e) =>
      e.kind === 'line'
        ? [e.from[0], e.to[0]]
        : e.kind === 'polyline'
          ? e.points.map((p) => p[0])
          : e.kind === 'circle'
            ? [e.center[0] - e.radius, e.center[0] + e.radius]
            : [e.at[0]],
    );
    expect(read.extmin[0]).toBeCloseTo(Math.min(...xs), 3);
    expect(read.extmax[0]).toBeCloseTo(Math.max(...xs), 3);
    expect(read.extmin[0]).toBeGreaterThan(6_000_000); // СК-42 zone 6: millions of metres from 0,0
    const dxfText = new TextDecoder('windows-1251').decode(writeDxf(drawing, cover.info, () => {}, reference).bytes);
    const active = dxfText.slice(dxfText.indexOf('*ACTIVE'), dxfText.indexOf('ENDTAB', dxfText.indexOf('*ACTIVE')));
    const code = (c: number) => Number(new RegExp(`\\n${c}\\n([-0-9.e+]+)\\n`).exec(active)![1]);
    // AutoCAD and its kin: the view centre is in display coordinates, from the view target.
    expect(code(17) + code(12)).toBeCloseTo((read.extmin[0] + read.extmax[0]) / 2, 3);
    expect(code(27) + code(22)).toBeCloseTo((read.extmin[1] + read.extmax[1]) / 2, 3);
    expect(read.vport!.height).toBeGreaterThan(read.extmax[1] - read.extmin[1]);
    expect(read.vport!.height * read.vport!.ratio).toBeGreaterThan(read.extmax[0] - read.extmin[0]);
  });

  it('as ezdxf reads the DXF and LibreDWG the DWG: the *ACTIVE view is centred on the drawing (target + centre) and its height covers it', async () => {
    const reference = crsOfKind('sk42', crs.lon, crs.lat);
    // The drawing's box from the plan's own entities (circles with their radius), not from the writer's extents.
    const plan = planCad(drawing, cover.info, () => {}, reference);
    const points = plan.entities.flatMap((e) =>
      e.kind === 'line'
        ? [e.from, e.to]
        : e.kind === 'polyline'
          ? e.points
          : e.kind === 'circle'
            ? [
                [e.center[0] - e.radius, e.center[1] - e.radius],
                [e.center[0] + e.radius, e.center[1] + e.radius],
              ]
            : [e.at],
    );
    const [minX, minY] = [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))];
    const [maxX, maxY] = [Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))];
    const middle = [(minX + maxX) / 2, (minY + maxY) / 2];

    writeFileSync(path('view-read.dxf'), writeDxf(drawing, cover.info, () => {}, reference).bytes);
    const dxf = centres(path('view-read.dxf'));
    expect(dxf.extmin[0]).toBeCloseTo(minX, 3);
    expect(dxf.extmin[1]).toBeCloseTo(minY, 3);
    expect(dxf.extmax[0]).toBeCloseTo(maxX, 3);
    expect(dxf.extmax[1]).toBeCloseTo(maxY, 3);
    const v = dxf.vport!;
    expect(v.target[0] + v.center[0]).toBeCloseTo(middle[0], 3);
    expect(v.target[1] + v.center[1]).toBeCloseTo(middle[1], 3);
    expect(v.height).toBeGreaterThanOrEqual(maxY - minY);
    expect(v.height * v.ratio).toBeGreaterThanOrEqual(maxX - minX);

    const dwg = await readDwg(writeDwg(drawing, cover.info, () => {}, {}, reference).bytes);
    expect(dwg.error).toBe(0);
    const header = dwg.db!.header as { EXTMIN?: { x: number; y: number }; EXTMAX?: { x: number; y: number } };
    expect(header.EXTMIN!.x).toBeCloseTo(minX, 3);
    expect(header.EXTMIN!.y).toBeCloseTo(minY, 3);
    expect(header.EXTMAX!.x).toBeCloseTo(maxX, 3);
    expect(header.EXTMAX!.y).toBeCloseTo(maxY, 3);
    const active = dwg.db!.tables.VPORT.entries.filter((e) => e.name.toUpperCase() === '*ACTIVE');
    expect(active).toHaveLength(1);
    const a = active[0];
    expect(a.viewTarget.x + a.center.x).toBeCloseTo(middle[0], 3);
    expect(a.viewTarget.y + a.center.y).toBeCloseTo(middle[1], 3);
    expect(a.viewDirectionFromTarget).toEqual({ x: 0, y: 0, z: 1 });
    expect(a.viewHeight).toBeGreaterThanOrEqual(maxY - minY);
    expect(a.viewHeight).toBeCloseTo(v.height, 6);
    // The number after the height is written as width/height, as libdxfrw (LibreCAD, QGIS) reads it;
    // LibreDWG reads it as the view's width and divides by the height (docs/map.md «Чертёж открывается на рисунке»).
    expect(a.aspectRatio! * a.viewHeight).toBeCloseTo(v.ratio, 6);
  });

  for (const format of ['dxf', 'dwg'] as const)
    it(`LibreCAD opens the СК-42 ${format.toUpperCase()} with the drawing on screen, not an empty view at 0,0`, () => {
      const reference = crsOfKind('sk42', crs.lon, crs.lat);
      const file = path(`view.${format}`);
      writeFileSync(
        file,
        format === 'dxf' ? writeDxf(drawing, cover.info, () => {}, reference).bytes : writeDwg(drawing, cover.info, () => {}, {}, reference).bytes,
      );
      const lines = librecad('view', file, `${file}.png`, { workDir: dir, seed: format === 'dxf' ? 500 : 600 });
      expect(lines[0]).toMatch(/^share /);
      // The district's streets, blocks and labels in layer colours over at least 1 % of the drawing area.
      expect(Number(lines[0].slice('share '.length))).toBeGreaterThan(0.01);
    });
});

describe('the same drawing gives the same file after every algorithm (issue 46, finding 7)', () => {
  const before: Record<AlgoTag, AlgoTag | null> = {
    road_gen_grid: null,
    road_gen_voronoi: null,
    road_subdivide: 'road_gen_voronoi',
    block_min_circle_cover: 'road_gen_grid',
    road_greed_types: 'road_gen_grid',
    road_greed_remove: 'road_gen_grid',
  };
  const files = (general: GeoCollection, info: GeoCollection) => {
    const state = fc([...drawn.features, ...general.features]);
    return [writeDxf(state, info, () => {}, crs).bytes, writeDwg(state, info, () => {}, {}, crs).bytes];
  };
  for (const tag of ALGO_TAGS)
    it(`${tag}: run twice, exported twice — byte-identical DXF and DWG`, () => {
      const start = before[tag] ? runAlgorithm(before[tag], { drawn, general: fc([]), crs }).general : fc([]);
      const first = runAlgorithm(tag, { drawn, general: start, crs });
      const second = runAlgorithm(tag, { drawn, general: start, crs });
      const [a, b] = [files(first.general, first.info), files(second.general, second.info)];
      expect(Buffer.from(b[0]).equals(Buffer.from(a[0]))).toBe(true);
      expect(Buffer.from(b[1]).equals(Buffer.from(a[1]))).toBe(true);
    });

  it('«Дерево» run again on its own result: the same drawing, the same bytes', () => {
    const start = runAlgorithm('road_gen_grid', { drawn, general: fc([]), crs }).general;
    const once = runAlgorithm('road_subdivide', { drawn, general: start, crs });
    const twice = runAlgorithm('road_subdivide', { drawn, general: once.general, crs });
    expect(JSON.stringify(twice.general)).toBe(JSON.stringify(once.general));
    const [a, b] = [files(once.general, once.info), files(twice.general, twice.info)];
    expect(Buffer.from(b[0]).equals(Buffer.from(a[0]))).toBe(true);
    expect(Buffer.from(b[1]).equals(Buffer.from(a[1]))).toBe(true);
  });
});
