import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadDistrict, featureCollection as fc } from '../../workers/test-support/drawing';
import { CAD_SUPPORT_DIR, librecad, PYTHON_WITH_EZDXF } from '../support/cad-tools';
import { defaultCrs, planCad, runAlgorithm, writeDwg, writeDxf, type GeoFeature } from '@norma/workers/map';

/*
 * Issue 46: CAD labels a planner can read. LibreCAD 2.2 draws every label character of the DXF and
 * of the DWG in a font it has (no placeholder «◊»), and GDAL and ezdxf's plain `readfile` read every
 * label back, Cyrillic and characters outside Windows-1251 alike.
 *
 * How «no placeholder» is checked, with no OCR: one drawing per character, all with the same extents
 * (an unnamed block around a named object), printed by LibreCAD's own `dxf2pdf` and rasterised. A
 * character LibreCAD has no glyph for is drawn as one and the same placeholder, so its page is
 * pixel for pixel the page of «₽» (no font LibreCAD ships has it); the test first shows that the
 * comparison sees it (the old export's «Д», in the style «Standard», is that page), then that every
 * character's page differs from it by more than half the placeholder's own ink. The DWG: LibreCAD
 * opens it under Xvfb and saves it as DXF (tests/support/librecad.sh, `resave`); that file — LibreCAD's
 * reading, styles and fonts included — is cut into one file per label (ezdxf-split-texts.py) and
 * printed the same way.
 *
 * GDAL reads the DWG through its CAD driver, which decodes strings by the header's code page and
 * shows «\U+XXXX» as it is: the DWG written with the text encoding «cp1251» is read by `ogrinfo`.
 */

/** What a planner types into names: Russian, digits, Latin, the punctuation of addresses, and characters outside Windows-1251. */
const CHARACTERS = [
  ...'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя',
  ...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  ...'.,:;!?()-—–«»"„“№%/+°½éèçüö',
];
const PLACEHOLDER = '₽';
const BLANK = ' ';

const frame: GeoFeature = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [30.2997, 59.92985],
        [30.3003, 59.92985],
        [30.3003, 59.93015],
        [30.2997, 59.93015],
        [30.2997, 59.92985],
      ],
    ],
  },
  properties: { type: 'block' },
};
const named = (name: string): GeoFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [30.3, 59.93] },
  properties: { type: 'object', type_id: 30, name },
});

let dir: string;

/**
 * LibreCAD 2.2's `dxf2pdf` sizes the page in drawing units: a drawing in metres prints on a page of
 * 210 m and comes out blank. The copy it prints says millimetres ($INSUNITS 4); nothing else differs.
 */
const inMillimetres = (bytes: Uint8Array) => {
  const text = Buffer.from(bytes).toString('latin1');
  const changed = text.replace('$INSUNITS\n70\n6\n', '$INSUNITS\n70\n4\n');
  expect(changed).not.toBe(text);
  return Buffer.from(changed, 'latin1');
};

/** Prints every DXF of the folder with LibreCAD and rasterises the pages: name → PNG path. */
function render(folder: string, names: string[]): Map<string, string> {
  execFileSync('librecad', ['dxf2pdf', '-a', ...names.map((n) => `${n}.dxf`)], {
    cwd: folder,
    env: { ...process.env, QT_QPA_PLATFORM: 'offscreen', HOME: folder },
    stdio: 'ignore',
    timeout: 300_000,
  });
  const pngs = new Map<string, string>();
  for (const n of names) {
    execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', join(folder, `${n}.pdf`), join(folder, n)]);
    pngs.set(n, join(folder, `${n}.png`));
  }
  return pngs;
}

/** Pixels that differ between two pages (ImageMagick, anti-aliasing tolerated). */
function differing(a: string, b: string): number {
  const result = spawnSync('compare', ['-metric', 'AE', '-fuzz', '15%', a, b, 'null:'], { encoding: 'utf8' });
  const n = Number(result.stderr.trim().split(/\s+/)[0]);
  expect(Number.isFinite(n), result.stderr).toBe(true);
  return n;
}

/** The check on one set of pages: the placeholder is seen, and no character is drawn as it. */
function expectNoPlaceholder(pages: Map<string, string>, keyOf: (ch: string) => string, label: string) {
  const placeholder = pages.get(keyOf(PLACEHOLDER))!;
  const ink = differing(placeholder, pages.get(keyOf(BLANK))!);
  expect(ink, `${label}: the placeholder draws something`).toBeGreaterThan(20);
  const drawnAsPlaceholder = CHARACTERS.filter((ch) => differing(pages.get(keyOf(ch))!, placeholder) < ink / 2);
  expect(drawnAsPlaceholder, `${label}: characters LibreCAD drew as its placeholder`).toEqual([]);
  const blank = CHARACTERS.filter((ch) => differing(pages.get(keyOf(ch))!, pages.get(keyOf(BLANK))!) === 0);
  expect(blank, `${label}: characters LibreCAD drew nothing for`).toEqual([]);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'norma-cad-labels-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CAD labels (issue 46)', () => {
  it('LibreCAD draws every character of the DXF labels in its own font, none as its placeholder', () => {
    const folder = join(dir, 'dxf');
    mkdirSync(folder);
    const all = [PLACEHOLDER, BLANK, ...CHARACTERS];
    all.forEach((ch, i) => writeFileSync(join(folder, `c${i}.dxf`), inMillimetres(writeDxf(fc([frame, named(ch)])).bytes)));
    // The export before issue 46: the same label in the style «Standard» (no group 7).
    const old = inMillimetres(writeDxf(fc([frame, named('Д')])).bytes).toString('latin1');
    expect(old).toContain('\n7\nlc_opengost-ar\n');
    writeFileSync(join(folder, 'old.dxf'), Buffer.from(old.replace('\n7\nlc_opengost-ar\n', '\n'), 'latin1'));
    const pages = render(folder, [...all.map((_, i) => `c${i}`), 'old']);
    const keyOf = (ch: string) => `c${all.indexOf(ch)}`;
    // The comparison sees a placeholder: the old label is drawn exactly as «₽».
    expect(differing(pages.get('old')!, pages.get(keyOf(PLACEHOLDER))!)).toBe(0);
    expectNoPlaceholder(pages, keyOf, 'DXF');
  });

  it('LibreCAD reads the DWG labels in the same font: opened, saved again, and every label drawn without its placeholder', () => {
    const folder = join(dir, 'dwg');
    mkdirSync(folder);
    const all = [PLACEHOLDER, BLANK, ...CHARACTERS];
    const dwg = writeDwg(fc([frame, ...all.map(named)]), undefined, () => {}, { created: new Date('2026-01-01T00:00:00Z') });
    writeFileSync(join(folder, 'labels.dwg'), dwg.bytes);
    const saved = join(folder, 'labels.librecad.dxf');
    const lines = librecad('resave', join(folder, 'labels.dwg'), saved, { workDir: folder, seed: 200 });
    expect(lines).toEqual([`saved ${saved}`]);
    const split = join(folder, 'split');
    mkdirSync(split);
    // LibreCAD writes «°» as AutoCAD's control code %%d (and reads it back as «°»).
    const texts = (
      JSON.parse(execFileSync(PYTHON_WITH_EZDXF, [join(CAD_SUPPORT_DIR, 'ezdxf-split-texts.py'), saved, split], { encoding: 'utf8' })) as string[]
    ).map((t) => t.replace(/%%d/gi, '°'));
    // LibreCAD read every label's string right (the DWG keeps them as \U+XXXX escapes).
    expect(texts.toSorted()).toEqual(all.toSorted());
    const pages = render(
      split,
      texts.map((_, i) => String(i)),
    );
    expectNoPlaceholder(pages, (ch) => String(texts.indexOf(ch)), 'DWG');
  });

  it('GDAL and ezdxf read every label and layer name back, in Windows-1251 and beyond it', () => {
    const names = ['Парк «Ёлочки»', 'Школа № 1 — корпус 2', 'Café «Éclair»', '½ квартала', 'Аренда 100 ₽/м²', 'ул. Ленина, 5'];
    const drawing = fc(names.map((name, i) => ({ ...named(name), geometry: { type: 'Point' as const, coordinates: [30.3 + i * 0.001, 59.93] } })));
    const crs = defaultCrs(drawing)!;
    const expected = planCad(drawing, undefined, () => {}, crs)
      .entities.filter((e) => e.kind === 'text')
      .map((e) => e.text);
    expect(expected).toEqual(names);
    for (const [file, subset, version] of [
      ['cp1251.dxf', names.slice(0, 2), 'AC1015'],
      ['utf8.dxf', names, 'AC1021'],
    ] as const) {
      const dxf = writeDxf(fc(drawing.features.filter((f) => (subset as readonly string[]).includes(f.properties.name as string))), undefined, () => {}, crs);
      expect(dxf.encoding).toBe(version === 'AC1015' ? 'cp1251' : 'utf-8');
      writeFileSync(join(dir, file), dxf.bytes);
      // ezdxf's plain readfile: the strings as they are, no \U+ escapes left.
      const script = `import ezdxf,json,sys\nd=ezdxf.readfile(sys.argv[1])\nprint(json.dumps({"v":d.dxfversion,"errors":len(d.audit().errors),"texts":[e.dxf.text for e in d.modelspace().query("TEXT")],"styles":sorted({e.dxf.style for e in d.modelspace().query("TEXT")}),"layers":[l.dxf.name for l in d.layers]},ensure_ascii=False))`;
      const ez = JSON.parse(execFileSync(PYTHON_WITH_EZDXF, ['-c', script, join(dir, file)], { encoding: 'utf8' })) as {
        v: string;
        errors: number;
        texts: string[];
        styles: string[];
        layers: string[];
      };
      expect(ez.v, file).toBe(version);
      expect(ez.errors, file).toBe(0);
      expect(ez.texts, file).toEqual(subset);
      expect(ez.styles, file).toEqual(['lc_opengost-ar']);
      expect(ez.layers, file).toContain('Объекты_Здание');
      // GDAL (ogrinfo) with no encoding given: every Text and Layer value.
      const out = execFileSync('ogrinfo', ['-ro', '-q', join(dir, file), 'entities'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const gdalTexts = [...out.matchAll(/^\s*Text \(String\) = (.*)$/gm)].map((m) => m[1]);
      const gdalLayers = new Set([...out.matchAll(/^\s*Layer \(String\) = (.*)$/gm)].map((m) => m[1]));
      expect(gdalTexts, file).toEqual(subset);
      expect([...gdalLayers].toSorted(), file).toEqual(['Объекты_Здание', 'Подписи']);
    }
    // The Cyrillic-only file is byte for byte Windows-1251; the other one is UTF-8.
    expect(readFileSync(join(dir, 'cp1251.dxf')).includes(Buffer.from('Школа', 'utf8'))).toBe(false);
    expect(readFileSync(join(dir, 'utf8.dxf')).includes(Buffer.from('Café', 'utf8'))).toBe(true);
  });

  it('GDAL reads every label and layer name of the DWG written in Windows-1251 (outside it: readable forms, no \\U+ codes); the default DWG it shows as \\U+ codes', () => {
    const drawn = cadDistrict({ more: true });
    const crs = defaultCrs(drawn)!;
    const grid = runAlgorithm('road_gen_grid', { drawn, general: fc([]), crs });
    const cover = runAlgorithm('block_min_circle_cover', { drawn, general: grid.general, crs });
    const extra = ['Парк «Ёлочки»', 'Школа № 1 — корпус 2', 'ул. Ленина, 5', 'Café «Éclair»', '½ квартала', 'Аренда 100 ₽/м²'];
    const drawing = fc([
      ...drawn.features,
      ...cover.general.features,
      ...extra.map((name, i) => ({ ...named(name), geometry: { type: 'Point' as const, coordinates: [30.301 + i * 0.001, 59.931] } })),
    ]);
    const plan = planCad(drawing, cover.info, () => {}, crs);
    // Characters outside Windows-1251 are written in their nearest readable form in that file (cp1251Readable).
    const outside: Record<string, string> = {
      'Café «Éclair»': 'Cafe «Eclair»',
      '½ квартала': '1/2 квартала',
      'Аренда 100 ₽/м²': 'Аренда 100 руб./м2',
    };
    const labels = plan.entities.flatMap((e) => (e.kind === 'text' ? [e.text] : []));
    const cyrillic = labels.filter((t) => /[а-яё]/i.test(t) && !(t in outside));
    expect(cyrillic.length).toBeGreaterThan(50);
    expect(cyrillic).toEqual(expect.arrayContaining(['Жилой район «Север»', 'улица Ленина', 'Проспект Мира', 'Школа № 1', 'Дом № 5', 'Парк «Ёлочки»']));
    const layers = Object.keys(plan.counts);
    expect(layers.filter((l) => /[а-яё]/i.test(l))).toEqual(layers);

    /** What GDAL (`ogrinfo`, no encoding given) reads: its layers with their feature counts, and every text. */
    const gdal = (file: string) => {
      const out = execFileSync('ogrinfo', ['-ro', '-al', '-q', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
      const counts: Record<string, number> = {};
      for (const m of out.matchAll(/^OGRFeature\((.*)\):\d+$/gm)) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
      return { counts, texts: [...out.matchAll(/^\s*text \(String\) = (.*)$/gm)].map((m) => m[1]) };
    };
    const write = (name: string, textEncoding?: 'cp1251') => {
      const file = join(dir, name);
      writeFileSync(file, writeDwg(drawing, cover.info, () => {}, { created: new Date('2026-01-01T00:00:00Z'), textEncoding }, crs).bytes);
      return file;
    };
    const read = gdal(write('gdal-1251.dwg', 'cp1251'));
    expect(read.counts).toEqual(plan.counts);
    expect(read.texts.toSorted()).toEqual(labels.map((t) => outside[t] ?? t).toSorted());

    // The default form: GDAL shows the codes, not one Cyrillic letter (what the option is for).
    const plain = gdal(write('gdal-default.dwg'));
    expect(plain.texts).toHaveLength(labels.length);
    expect(plain.texts.filter((t) => /[а-яё]/i.test(t))).toEqual([]);
    expect(plain.texts).toContain('\\U+0414\\U+043E\\U+043C \\U+2116 5'); // «Дом № 5»
    expect(Object.keys(plain.counts).filter((l) => /[а-яё]/i.test(l))).toEqual([]);
  });
});
