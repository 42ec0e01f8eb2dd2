import { describe, expect, it } from 'vitest';
import { mapType, typesOf } from '../catalog';
import { LABEL_LAYER, layerOf, planCad, type CadEntity } from '../dxf';
import { DwgLimitError, writeDwg } from './write';
import { BitWriter, modularChar, modularShort } from './bit-writer';
import { encodeCp1251, encodeDwgText, fitsCp1251 } from './cp1251';
import { crc16 } from './crc';
import { LIBREDWG_CRITICAL, readDwg } from '../../../test-support/dwg-read-back';
import { dwgHolds } from '../../../test-support/dwg-bytes';
import type { GeoCollection, GeoFeature } from '../network';

const bitsOf = (f: (w: BitWriter) => void) => {
  const w = new BitWriter();
  f(w);
  const bytes = w.bytes();
  return [...bytes]
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('')
    .slice(0, w.bitLength);
};
const bytesOf = (f: (w: BitWriter) => void) => {
  const w = new BitWriter();
  f(w);
  return [...w.bytes()];
};

describe('DWG bit codes (Open Design Specification, chapter 2)', () => {
  it('writes bitshorts, bitlongs and bitdoubles with their two-bit prefixes', () => {
    expect(bitsOf((w) => w.BS(0))).toBe('10');
    expect(bitsOf((w) => w.BS(256))).toBe('11');
    expect(bitsOf((w) => w.BS(5))).toBe('0100000101');
    expect(bitsOf((w) => w.BS(1000))).toBe('00' + '11101000' + '00000011');
    expect(bitsOf((w) => w.BL(0))).toBe('10');
    expect(bitsOf((w) => w.BL(70000))).toBe('00' + '01110000' + '00010001' + '00000001' + '00000000');
    expect(bitsOf((w) => w.BD(0))).toBe('10');
    expect(bitsOf((w) => w.BD(1))).toBe('01');
    expect(bitsOf((w) => w.BD(2.5)).slice(0, 2)).toBe('00');
    expect(bitsOf((w) => w.BD(2.5))).toHaveLength(66);
    expect(bitsOf((w) => w.B(1).BB(2))).toBe('110');
    expect(bitsOf((w) => w.BE())).toBe('1');
    expect(bitsOf((w) => w.BT())).toBe('1');
  });

  it('writes a default double as 00, a partly equal one with 4 or 6 bytes, else in full', () => {
    expect(bitsOf((w) => w.DD(10, 10))).toBe('00');
    const rd = (v: number) => [...new Uint8Array(new Float64Array([v]).buffer)];
    const low = 10 + 2 ** -40; // same upper four bytes as 10
    expect(bitsOf((w) => w.DD(low, 10)).slice(0, 2)).toBe('01');
    expect(bytesOf((w) => w.RC(0).DD(low, 10).align()).length).toBe(1 + 5);
    expect(bitsOf((w) => w.DD(123.456, 10)).slice(0, 2)).toBe('11');
    expect(bytesOf((w) => w.BB(3).RD(123.456).align().RC(0))).toEqual(bytesOf((w) => w.DD(123.456, 10).align().RC(0)));
    expect(rd(1)).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
  });

  it('writes modular chars and shorts as the specification’s examples', () => {
    expect(modularChar(4610)).toEqual([0x82, 0x24]);
    expect(modularChar(112)).toEqual([0xf0, 0x00]);
    expect(modularChar(-1)).toEqual([0x41]);
    expect(modularChar(0)).toEqual([0x00]);
    expect(modularShort(4650033)).toEqual([0x31, 0xf4, 0x8d, 0x00]);
    expect(modularShort(100)).toEqual([100, 0]);
  });

  it('writes handle references as code, byte count and the handle most significant byte first', () => {
    expect(bytesOf((w) => w.H(5, 0x20))).toEqual([0x51, 0x20]);
    expect(bytesOf((w) => w.H(4, 0))).toEqual([0x40]);
    expect(bytesOf((w) => w.H(0, 0x1234))).toEqual([0x02, 0x12, 0x34]);
  });

  it('computes the 16-bit CRC (CRC-16/ARC) and encodes Cyrillic as Windows-1251', () => {
    expect(crc16(new TextEncoder().encode('123456789'), 0)).toBe(0xbb3d);
    const high = new Uint8Array(128).map((_, i) => 0x80 + i);
    const decoded = new TextDecoder('windows-1251').decode(high.filter((b) => b !== 0x98));
    expect([...encodeCp1251(decoded)]).toEqual([...high.filter((b) => b !== 0x98)]);
    expect(encodeCp1251('漢')).toEqual(new Uint8Array([0x3f]));
  });

  it('writes DWG strings as ASCII with \\U+XXXX escapes (libdxfrw reads R2000 strings as Windows-1252) and tells DXF text that fits Windows-1251', () => {
    expect(new TextDecoder().decode(encodeDwgText('Школа № 1'))).toBe('\\U+0428\\U+043A\\U+043E\\U+043B\\U+0430 \\U+2116 1');
    expect([...encodeDwgText('Line 7')]).toEqual([...new TextEncoder().encode('Line 7')]);
    expect(fitsCp1251('Дом № 5 — «Ёлочки»')).toBe(true);
    for (const outside of ['café', '½', '100 ₽', '漢']) expect(fitsCp1251(outside), outside).toBe(false);
  });

  it('writes DWG strings for GDAL as Windows-1251 bytes, characters outside it in their nearest readable form', () => {
    const label = 'Парк «Ёлочки» № 5 — Café ½ 100 ₽/м² 漢';
    const bytes = encodeDwgText(label, 'cp1251');
    // Decoded as the header's code page says: the label, with é ½ ₽ ² written as a planner would and «?» for what has no form.
    expect(new TextDecoder('windows-1251').decode(bytes)).toBe('Парк «Ёлочки» № 5 — Cafe 1/2 100 руб./м2 ?');
    expect(new TextDecoder().decode(bytes)).not.toContain('\\U+');
    expect([...encodeDwgText('Школа', 'cp1251')]).toEqual([...encodeCp1251('Школа')]);
    expect([...encodeDwgText('Line 7', 'cp1251')]).toEqual([...encodeDwgText('Line 7', 'unicode')]);
    expect([...encodeDwgText('漢', 'cp1251')]).toEqual([0x3f]);
    expect(encodeDwgText(label)).toEqual(encodeDwgText(label, 'unicode'));
  });
});

const feature = (type: string, geometry: GeoFeature['geometry'], props: Record<string, unknown> = {}): GeoFeature => ({
  type: 'Feature',
  geometry,
  properties: { type, ...props },
});
const ring = (lon: number, lat: number, d: number) => [
  [lon, lat],
  [lon + d, lat],
  [lon + d, lat + d / 2],
  [lon, lat + d / 2],
  [lon, lat],
];
/** A fixed drawing: two areas, roads of the three classes, a zone, objects, a named block and an info label. */
const drawing: GeoCollection = {
  type: 'FeatureCollection',
  features: [
    feature('area', { type: 'Polygon', coordinates: [ring(30.3, 59.93, 0.01)] }, { type_id: 10, name: 'Жилой квартал «Север»' }),
    feature('area', { type: 'Polygon', coordinates: [ring(30.33, 59.93, 0.008)] }, { type_id: 13 }),
    feature(
      'road',
      {
        type: 'LineString',
        coordinates: [
          [30.29, 59.935],
          [30.2995, 59.935],
        ],
      },
      { type_id: 1 },
    ),
    feature(
      'road',
      {
        type: 'LineString',
        coordinates: [
          [30.3, 59.931],
          [30.305, 59.932],
          [30.31, 59.931],
        ],
      },
      { type_id: 2 },
    ),
    feature(
      'road',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [30.301, 59.933],
            [30.302, 59.934],
            [30.303, 59.933],
          ],
          [
            [30.304, 59.933],
            [30.305, 59.934],
          ],
        ],
      },
      { type_id: 3 },
    ),
    feature('zone', { type: 'Polygon', coordinates: [ring(30.305, 59.932, 0.002)] }, { type_id: 20, radius: 500 }),
    feature('object', { type: 'Point', coordinates: [30.306, 59.933] }, { type_id: 30, name: 'Дом №5' }),
    feature('object', { type: 'Point', coordinates: [30.307, 59.9335] }, { type_id: 31, radius: 6 }),
    feature('block', { type: 'Polygon', coordinates: [ring(30.301, 59.931, 0.002)] }, { type_id: 40, name: 'Квартал 7' }),
  ],
};
const info: GeoCollection = {
  type: 'FeatureCollection',
  features: [feature('info', { type: 'Point', coordinates: [30.31, 59.936] }, { html_short: '<b>Итого:</b> 3 км дорог' })],
};

const point = (p: { x: number; y: number }) => [p.x, p.y];

describe('DWG export (AutoCAD 2000)', () => {
  it('writes a file LibreDWG reads back with the same layers, colours, entities, coordinates and Cyrillic texts', async () => {
    const plan = planCad(drawing, info);
    const dwg = writeDwg(drawing, info, () => {}, { created: new Date('2025-03-01T12:00:00Z') });
    expect(new TextDecoder().decode(dwg.bytes.subarray(0, 6))).toBe('AC1015');
    expect(dwg.counts).toEqual(plan.counts);

    const { error, codepage, db } = await readDwg(dwg.bytes);
    expect(error).toBeLessThan(LIBREDWG_CRITICAL);
    expect(error).toBe(0); // not even a CRC or handle warning
    expect(codepage).toBe(29); // ANSI_1251
    expect(db).not.toBeNull();

    const layers = new Map(db!.tables.LAYER.entries.map((l) => [l.name, l]));
    for (const l of plan.layers) {
      expect(layers.get(l.name)?.colorIndex).toBe(l.aci);
      expect(layers.get(l.name)?.frozen).toBe(false);
      expect(layers.get(l.name)?.off).toBe(false);
    }
    expect(layers.has('0')).toBe(true);
    expect(layers.get(layerOf(mapType('road', 2)))?.colorIndex).toBe(30);
    expect(layers.has('Дороги_Местный_проезд')).toBe(true);

    const ents = db!.entities;
    expect(ents).toHaveLength(plan.entities.length);
    const perLayer: Record<string, number> = {};
    for (const e of ents) perLayer[e.layer] = (perLayer[e.layer] ?? 0) + 1;
    expect(perLayer).toEqual(plan.counts);
    const perType = (list: Array<{ type?: string; kind?: string }>) =>
      list.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.type ?? e.kind!]: (acc[e.type ?? e.kind!] ?? 0) + 1 }), {});
    const kinds: Record<CadEntity['kind'], string> = { line: 'LINE', polyline: 'LWPOLYLINE', circle: 'CIRCLE', text: 'TEXT' };
    expect(perType(ents)).toEqual(Object.fromEntries(Object.entries(perType(plan.entities)).map(([k, n]) => [kinds[k as CadEntity['kind']], n])));
    // Three road classes: a line for the two-point main road, polylines for the others.
    for (const id of [1, 2, 3]) expect(perLayer[layerOf(mapType('road', id))]).toBeGreaterThan(0);
    expect(typesOf('road')).toHaveLength(3);

    // Entity by entity, in order: geometry equal to what was written (to 1e-6 m), texts equal.
    plan.entities.forEach((want, i) => {
      const got = ents[i] as unknown as Record<string, never>;
      expect(got.layer).toBe(want.layer);
      const near = (a: number[], b: readonly number[]) => a.forEach((v, k) => expect(Math.abs(v - b[k])).toBeLessThan(1e-6));
      if (want.kind === 'line') {
        near(point(got.startPoint), want.from);
        near(point(got.endPoint), want.to);
      } else if (want.kind === 'polyline') {
        const vertices = got.vertices as Array<{ x: number; y: number }>;
        expect(vertices).toHaveLength(want.points.length);
        vertices.forEach((v, k) => near(point(v), want.points[k]));
        expect(((got.flag as number) & 512) !== 0).toBe(want.closed);
      } else if (want.kind === 'circle') {
        near(point(got.center), want.center);
        expect(Math.abs((got.radius as number) - want.radius)).toBeLessThan(1e-6);
      } else {
        expect(got.text).toBe(want.text);
        near(point(got.startPoint), want.at);
        expect(got.textHeight).toBe(want.height);
        expect(got.halign).toBe(want.centered ? 1 : 0);
        expect(got.valign).toBe(want.centered ? 2 : 0);
      }
    });
    const texts = ents.filter((e) => e.type === 'TEXT').map((e) => (e as unknown as { text: string }).text);
    expect(texts).toEqual(expect.arrayContaining(['Жилой квартал «Север»', 'Дом №5', 'Школа', 'Итого: 3 км дорог']));
    expect(ents.filter((e) => e.layer === LABEL_LAYER).length).toBeGreaterThan(3);
    // Closed outlines for areas and blocks, open polylines for roads.
    const outline = ents.find((e) => e.layer === layerOf(mapType('area', 10))) as unknown as { flag: number; vertices: unknown[] };
    expect(outline.flag & 512).toBe(512);
    expect(outline.vertices).toHaveLength(4);
  });

  it('writes the same drawing in either text encoding: LibreDWG reads equal labels and layer names; the bytes are 1251 or escapes', async () => {
    const outside = 'Café «Éclair» ½ — 100 ₽';
    const mixed: GeoCollection = {
      ...drawing,
      features: [...drawing.features, feature('object', { type: 'Point', coordinates: [30.308, 59.934] }, { type_id: 30, name: outside })],
    };
    const plan = planCad(mixed, info);
    const files = {
      unicode: writeDwg(mixed, info, () => {}, { textEncoding: 'unicode' }).bytes,
      cp1251: writeDwg(mixed, info, () => {}, { textEncoding: 'cp1251' }).bytes,
    };
    // The default is today's form, byte for byte.
    expect(Buffer.from(writeDwg(mixed, info).bytes).equals(Buffer.from(files.unicode))).toBe(true);
    const wanted = plan.entities.flatMap((e) => (e.kind === 'text' ? [e.text] : []));
    expect(wanted).toEqual(expect.arrayContaining(['Жилой квартал «Север»', 'Дом №5', outside]));
    for (const [encoding, bytes] of Object.entries(files)) {
      const { error, codepage, db } = await readDwg(bytes);
      expect(error, encoding).toBe(0);
      expect(codepage, encoding).toBe(29);
      // The 1251 file holds what is outside Windows-1251 in its readable form (cp1251Readable), the default one exactly.
      const read = encoding === 'cp1251' ? wanted.map((t) => (t === outside ? 'Cafe «Eclair» 1/2 — 100 руб.' : t)) : wanted;
      expect(
        db!.entities.flatMap((e) => (e.type === 'TEXT' ? [(e as unknown as { text: string }).text] : [])),
        encoding,
      ).toEqual(read);
      expect(db!.tables.LAYER.entries.map((l) => l.name).toSorted(), encoding).toEqual(['0', ...plan.layers.map((l) => l.name)].toSorted());
    }
    const has = dwgHolds;
    for (const name of ['Жилой квартал «Север»', 'Кварталы_Квартал', LABEL_LAYER]) {
      expect(has(files.cp1251, encodeCp1251(name)), name).toBe(true);
      expect(has(files.unicode, encodeCp1251(name)), name).toBe(false);
      expect(has(files.unicode, encodeDwgText(name)), name).toBe(true);
    }
    // Outside Windows-1251, the 1251 file has no escapes: the default one does.
    expect(has(files.cp1251, new TextEncoder().encode('\\U+'))).toBe(false);
    expect(has(files.unicode, new TextEncoder().encode('Caf\\U+00E9'))).toBe(true);
  });

  it('writes an empty drawing LibreDWG still reads', async () => {
    const dwg = writeDwg({ type: 'FeatureCollection', features: [] });
    const { error, db } = await readDwg(dwg.bytes);
    expect(error).toBe(0);
    expect(db!.entities).toHaveLength(0);
    expect(db!.tables.BLOCK_RECORD.entries.map((b) => b.name).sort()).toEqual(['*Model_Space', '*Paper_Space']);
  });

  it('keeps object-map pages within the format’s limit for a large drawing', async () => {
    const many: GeoFeature[] = [];
    for (let i = 0; i < 1500; i++)
      many.push(feature('object', { type: 'Point', coordinates: [30.3 + (i % 50) * 0.0005, 59.93 + Math.floor(i / 50) * 0.0005] }, { type_id: 30 }));
    const dwg = writeDwg({ type: 'FeatureCollection', features: many });
    const { error, db } = await readDwg(dwg.bytes);
    expect(error).toBe(0);
    expect(db!.entities.filter((e) => e.type === 'CIRCLE')).toHaveLength(1500);
    expect(db!.entities.filter((e) => e.type === 'TEXT')).toHaveLength(1500);
  });
});

describe('DWG limits', () => {
  it('refuses a polyline over the format’s vertex limit with a message for the user', () => {
    const coords = Array.from({ length: 20_001 }, (_, i) => [30.3 + i * 1e-6, 59.93 + (i % 2) * 1e-6]);
    expect(() => writeDwg({ type: 'FeatureCollection', features: [feature('road', { type: 'LineString', coordinates: coords }, { type_id: 3 })] })).toThrow(
      DwgLimitError,
    );
  });
});
