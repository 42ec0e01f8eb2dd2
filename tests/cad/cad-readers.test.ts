import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadDistrict, featureCollection as fc } from '../../workers/test-support/drawing';
import { CAD_SUPPORT_DIR, librecad, PYTHON_WITH_EZDXF } from '../support/cad-tools';
import { crsOfKind, defaultCrs, planCad, runAlgorithm, writeDwg, writeDxf, type ProjectCrs } from '@norma/workers/map';
// Test-only LibreDWG reader (GPL, devDependency).
import { readDwg } from '../../workers/test-support/dwg-read-back';

/*
 * Issue 27: the exports opened by independent software a planner has — ezdxf (audit, per-layer
 * counts), GDAL (features per layer, Cyrillic without being told the encoding, the .prj's
 * projection), LibreCAD 2.2 under Xvfb (no import-error dialog; its own entity counts, from the
 * drawing it saves again as DXF) and LibreDWG. The tools come from
 * Debian (.ci/run installs them).
 */

/** The CAD tests' district (workers/test-support/drawing.ts) with an avenue west of it, a house and a bus stop. */
const drawn = cadDistrict({ more: true });
const crs = defaultCrs(drawn)!;
const grid = runAlgorithm('road_gen_grid', { drawn, general: fc([]), crs });
const cover = runAlgorithm('block_min_circle_cover', { drawn, general: grid.general, crs });
const drawing = fc([...drawn.features, ...cover.general.features]);

let dir: string;
const path = (name: string) => join(dir, name);

function exportAll(name: string, reference: ProjectCrs = crs, state = drawing, info = cover.info) {
  const dxf = writeDxf(state, info, () => {}, reference);
  const dwg = writeDwg(state, info, () => {}, { created: new Date('2026-01-01T00:00:00Z') }, reference);
  writeFileSync(path(`${name}.dxf`), dxf.bytes);
  writeFileSync(path(`${name}.dwg`), dwg.bytes);
  writeFileSync(path(`${name}.prj`), dxf.projection.wkt);
  return { dxf, dwg };
}

interface EzdxfReport {
  version: string;
  codepage: string;
  errors: number;
  fixes: number;
  per_layer: Record<string, number>;
  kinds: Record<string, number>;
  layers: Record<string, number>;
  texts: string[];
  crs: Array<[number, string | number]> | null;
  first_outline: Record<string, number[][]>;
}
const ezdxf = (file: string) =>
  JSON.parse(execFileSync(PYTHON_WITH_EZDXF, [join(CAD_SUPPORT_DIR, 'ezdxf-report.py'), file], { encoding: 'utf8' })) as EzdxfReport;

/** GDAL's features per layer, with no encoding given: it must follow the file's own $DWGCODEPAGE. */
function gdalPerLayer(file: string): Record<string, number> {
  const out = execFileSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', 'SELECT Layer AS layer, COUNT(*) AS n FROM entities GROUP BY Layer', file], {
    encoding: 'utf8',
  });
  const counts: Record<string, number> = {};
  let layer = '';
  for (const line of out.split('\n')) {
    const name = /^\s*layer \(String\) = (.*)$/.exec(line);
    if (name) layer = name[1];
    const n = /^\s*n \(Integer\) = (\d+)$/.exec(line);
    if (n) counts[layer] = Number(n[1]);
  }
  return counts;
}

/** LibreCAD 2.2 opening the file under Xvfb: the windows it showed and what it printed. */
const librecadOpen = (file: string) => librecad('open', file, `${file}.png`, { workDir: dir, seed: 0 });

/**
 * LibreCAD 2.2 opening the file under Xvfb and saving it again as DXF through its own «Save as…»
 * (tests/support/librecad.sh, `resave`): what LibreCAD itself read, for ezdxf to count.
 */
const librecadResave = (file: string, out: string) => librecad('resave', file, out, { workDir: dir, seed: 350 });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'norma-cad-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CAD export read by independent software (ezdxf, GDAL, LibreCAD, LibreDWG)', () => {
  it('ezdxf audits the DXF clean, with every entity on its layer, the layer colours, the names and the coordinate reference', () => {
    const { dxf } = exportAll('output');
    const plan = planCad(drawing, cover.info, () => {}, crs);
    const report = ezdxf(path('output.dxf'));
    expect(report).toMatchObject({ version: 'AC1015', codepage: 'ANSI_1251', errors: 0, fixes: 0 });
    expect(report.per_layer).toEqual(dxf.counts);
    for (const l of plan.layers) expect(report.layers[l.name]).toBe(l.aci);
    expect(report.texts).toEqual(expect.arrayContaining(['Школа № 1', 'улица Ленина', 'Проспект Мира', 'Дом № 5', 'Жилой район «Север»']));
    expect(report.crs).toEqual([
      [1, dxf.projection.name],
      [1, dxf.projection.definition],
      [90, 0],
    ]);
  });

  it('GDAL reads the same features per layer and the Cyrillic names without being told the encoding', () => {
    const { dxf } = exportAll('output');
    expect(gdalPerLayer(path('output.dxf'))).toEqual(dxf.counts);
    const texts = execFileSync('ogrinfo', ['-ro', '-q', '-where', "Text = 'Школа № 1'", path('output.dxf'), 'entities'], { encoding: 'utf8' });
    expect(texts).toContain('Text (String) = Школа № 1');
  });

  for (const kind of ['local', 'sk42', 'utm'] as const)
    it(`the .prj beside the file places it where GDAL/PROJ projects the drawing (${kind})`, () => {
      const reference = crsOfKind(kind, crs.lon, crs.lat);
      exportAll(`ref-${kind}`, reference);
      const corner = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', path(`ref-${kind}.prj`)], { input: '30.3 59.93\n', encoding: 'utf8' })
        .trim()
        .split(/\s+/)
        .map(Number);
      const outline = ezdxf(path(`ref-${kind}.dxf`)).first_outline['Территории_Жилая_застройка'];
      expect(Math.abs(outline[0][0] - corner[0])).toBeLessThan(0.01);
      expect(Math.abs(outline[0][1] - corner[1])).toBeLessThan(0.01);
    });

  it('LibreCAD opens the DXF and the DWG with no import-error dialog; LibreDWG and ezdxf agree on the entities', async () => {
    const { dxf, dwg } = exportAll('output');
    expect(librecadOpen(path('output.dxf'))).toEqual(['opened LibreCAD - [output.dxf]']);
    // The DWG: only LibreCAD's general notice «DWG support is not complete» (window «Information»).
    expect(librecadOpen(path('output.dwg'))).toEqual(['notice Information', 'opened LibreCAD - [output.dwg]']);
    const read = await readDwg(dwg.bytes);
    expect(read.error).toBe(0);
    const perLayer: Record<string, number> = {};
    for (const e of read.db!.entities) perLayer[e.layer] = (perLayer[e.layer] ?? 0) + 1;
    expect(perLayer).toEqual(ezdxf(path('output.dxf')).per_layer);
    expect(perLayer).toEqual(dxf.counts);
  });

  it('LibreCAD itself reads every entity of the DXF and the DWG: saved again from its «Save as…», ezdxf counts the same per layer and kind', () => {
    exportAll('output');
    const written = ezdxf(path('output.dxf'));
    expect(Object.values(written.per_layer).reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    for (const file of ['output.dxf', 'output.dwg']) {
      const out = path(`${file}.librecad.dxf`);
      expect(librecadResave(path(file), out), file).toEqual([`saved ${out}`]);
      const read = ezdxf(out);
      expect(read.errors, file).toBe(0);
      expect(read.per_layer, file).toEqual(written.per_layer);
      expect(read.kinds, file).toEqual(written.kinds);
      expect(read.layers, file).toEqual(written.layers);
      expect(read.texts.toSorted(), file).toEqual(written.texts.toSorted());
    }
  });

  it('layer colours differ as rendered (ACI → RGB) and read on white and on black', () => {
    const plan = planCad(drawing, cover.info, () => {}, crs);
    // The ACI palette as ezdxf renders it, not a table of ours.
    const script = `import json,sys\nfrom ezdxf.colors import aci2rgb\nprint(json.dumps([list(aci2rgb(int(a))) for a in sys.argv[1:]]))`;
    const rgb = JSON.parse(execFileSync(PYTHON_WITH_EZDXF, ['-c', script, ...plan.layers.map((l) => String(l.aci))], { encoding: 'utf8' })) as number[][];
    const linear = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const luminance = (c: number[]) => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
    const lab = (c: number[]) => {
      const [r, g, b] = c.map(linear);
      const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
      const [x, y, z] = [
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
      ];
      return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
    };
    plan.layers.forEach((l, i) => {
      const L = luminance(rgb[i]);
      expect(1.05 / (L + 0.05), `${l.name} on white`).toBeGreaterThanOrEqual(2.5);
      expect((L + 0.05) / 0.05, `${l.name} on black`).toBeGreaterThanOrEqual(2.5);
      for (let j = 0; j < i; j++) {
        const [p, q] = [lab(rgb[i]), lab(rgb[j])];
        expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]), `${l.name} vs ${plan.layers[j].name}`).toBeGreaterThanOrEqual(20);
      }
    });
  });

  it('the same project state gives byte-identical files; the territory stays put across algorithm runs', () => {
    const first = exportAll('again-1');
    exportAll('other', crs, fc(drawn.features.slice(0, 3)), fc([])); // another export in between
    const second = exportAll('again-2');
    expect(Buffer.from(second.dxf.bytes).equals(Buffer.from(first.dxf.bytes))).toBe(true);
    expect(Buffer.from(second.dwg.bytes).equals(Buffer.from(first.dwg.bytes))).toBe(true);
    // After the grid only, then after the zone cover: the same corner, to the millimetre.
    exportAll('after-grid', crs, fc([...drawn.features, ...grid.general.features]), grid.info);
    const a = ezdxf(path('after-grid.dxf')).first_outline['Территории_Жилая_застройка'];
    const b = ezdxf(path('again-1.dxf')).first_outline['Территории_Жилая_застройка'];
    expect(b).toEqual(a);
  });
});
