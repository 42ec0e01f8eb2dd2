import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { mo } from 'gettext-parser';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { buildBasemap } from './basemap-build';
import { PLACES_MISSING } from '../../../tests/support/geonames';
import { PLACES_PER_TILE, russianPlaces } from './places';

/** The archive's tile z/x/y decoded (the pmtiles reader ungzips it), or null where there is none. */
async function tileOf(bytes: Uint8Array, z: number, x: number, y: number): Promise<VectorTile | null> {
  const archive = new PMTiles({ getKey: () => 'b', getBytes: async (o: number, l: number) => ({ data: bytes.slice(o, o + l).buffer as ArrayBuffer }) });
  const tile = await archive.getZxy(z, x, y);
  return tile ? new VectorTile(new PbfReader(new Uint8Array(tile.data))) : null;
}

/** The `places` features of a tile: name and size class, in the tile's order. */
function placesOf(tile: VectorTile | null): Array<{ name: string; rank: number }> {
  const layer = tile?.layers.places;
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const { name, rank } = layer.feature(i).properties;
    return { name: String(name), rank: Number(rank) };
  });
}

/** A gettext catalogue like Debian's geonames.mo: GeoNames id → Russian name. */
function catalogue(entries: Record<string, string>): string {
  const translations: Record<string, { msgid: string; msgstr: string[] }> = { '': { msgid: '', msgstr: ['Content-Type: text/plain; charset=UTF-8\n'] } };
  for (const [msgid, name] of Object.entries(entries)) translations[msgid] = { msgid, msgstr: [name] };
  const file = join(mkdtempSync(join(tmpdir(), 'norma-places-')), 'geonames.mo');
  writeFileSync(file, mo.compile({ charset: 'utf-8', headers: { 'Content-Type': 'text/plain; charset=UTF-8' }, translations: { '': translations } }));
  return file;
}

// Saint Petersburg (GeoNames 498817) lies in tile 4/9/4 and 6/37/18; Kolpino (546105) next to it.
const SPB = { msgid: '498817', z6: [6, 37, 18] as const };

describe('town names on the basemap', () => {
  it('labels towns with the Russian names of the GeoNames catalogue, larger first; without a catalogue there is no places layer', async () => {
    const file = catalogue({ [SPB.msgid]: 'Санкт-Петербург', '546105': 'Колпино', '99999999': 'Нет такого места' });
    const labelled = buildBasemap(4, file);
    const near = placesOf(await tileOf(labelled, 4, 9, 4));
    expect(near.slice(0, 2)).toEqual([
      { name: 'Санкт-Петербург', rank: 1 },
      { name: 'Колпино', rank: 3 },
    ]);
    // Only names that are Cyrillic in the first place: no transliteration ever becomes a label.
    expect(near.every((p) => !/[A-Za-z]/.test(p.name))).toBe(true);
    const archive = new PMTiles({ getKey: () => 'b', getBytes: async (o: number, l: number) => ({ data: labelled.slice(o, o + l).buffer as ArrayBuffer }) });
    expect(await archive.getMetadata()).toMatchObject({ attribution: 'Natural Earth, GeoNames (CC BY 4.0)' });

    const plain = buildBasemap(4, null);
    const tile = await tileOf(plain, 4, 9, 4);
    expect(Object.keys(tile!.layers).sort()).toEqual(['borders', 'land']);
    const plainArchive = new PMTiles({ getKey: () => 'p', getBytes: async (o: number, l: number) => ({ data: plain.slice(o, o + l).buffer as ArrayBuffer }) });
    expect(await plainArchive.getMetadata()).toMatchObject({ attribution: 'Natural Earth' });
  });

  it('without a Russian name a town is labelled only if its own name is Cyrillic', () => {
    const own = russianPlaces(new Map());
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((p) => /^\p{Script=Cyrillic}/u.test(p.name) && !/[A-Za-z]/.test(p.name))).toBe(true);
  });
});

describe.skipIf(PLACES_MISSING)("with Debian's GeoNames catalogue (libgeonames-common)", () => {
  it('the tile of the start view has «Санкт-Петербург» and its neighbours in Russian; upper zooms keep only the largest towns', async () => {
    const bytes = buildBasemap();
    const [z, x, y] = SPB.z6;
    const names = placesOf(await tileOf(bytes, z, x, y)).map((p) => p.name);
    expect(names[0]).toBe('Санкт-Петербург');
    expect(names).toEqual(expect.arrayContaining(['Колпино', 'Пушкин', 'Петергоф', 'Кронштадт', 'Выборг']));
    expect(names.filter((n) => /[A-Za-z]/.test(n))).toEqual([]);
    const world = placesOf(await tileOf(bytes, 0, 0, 0));
    expect(world).toHaveLength(PLACES_PER_TILE);
    expect(world.map((p) => p.rank)).toEqual(Array(PLACES_PER_TILE).fill(1));
  });
});
