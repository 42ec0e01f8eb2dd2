import Drawing from 'dxf-writer';
import Handle from 'dxf-writer/src/Handle.js';
import Text from 'dxf-writer/src/Text.js';
import TextStyle from 'dxf-writer/src/TextStyle.js';
import { MAP_TYPES, mapType, type MapFeatureType, type MapType } from './catalog';
import { crsProjection, defaultCrs, localCrs, type CrsProjection, type ProjectCrs } from './crs';
import { encodeCp1251, fitsCp1251 } from './dwg/cp1251';
import { centroid, dist, type Poly, type XY } from './geo';
import type { GeoCollection, GeoFeature } from './network';

const PREFIX: Record<MapFeatureType, string> = { area: 'Территории', road: 'Дороги', zone: 'Зоны', object: 'Объекты', block: 'Кварталы', info: 'Сведения' };
export const LABEL_LAYER = 'Подписи';
/** Labels: dark slate blue, apart from every type colour (catalog.ts `aci`). */
export const LABEL_ACI = 165;

/** The DXF layer of a type: kind and type name, e.g. «Дороги_Магистральная_улица» (no characters DXF forbids). */
export const layerOf = (type: MapType) => `${PREFIX[type.feature_type]}_${type.name}`.replace(/[<>/\\":;?*|=`,.]/g, '').replace(/\s+/g, '_');

/**
 * The text style of every label. LibreCAD and the QCAD family take a style's *name* for one of their
 * own fonts: «lc_opengost-ar» is LibreCAD's ГОСТ 2.304 type A, the one it ships with Cyrillic, Latin,
 * «№», dashes and quotes (its «unicode» has no «№» and no dashes). The font file, Arial, is what
 * AutoCAD and the programs that follow the file's font draw with. No CAD font LibreCAD ships has «₽».
 */
export const LABEL_STYLE = 'lc_opengost-ar';
export const LABEL_FONT = 'arial.ttf';

export interface DxfResult {
  /** The DXF as text. */
  text: string;
  /** The file: `text` in Windows-1251 (AutoCAD 2000) or, when a string has a character outside it, UTF-8 (AutoCAD 2007). */
  bytes: Uint8Array;
  /** How `bytes` are written. */
  encoding: 'cp1251' | 'utf-8';
  projection: CrsProjection;
  /** Entities written per layer. */
  counts: Record<string, number>;
}

/** One CAD entity in projected metres: what both the DXF and the DWG writer draw. */
export type CadEntity =
  | { kind: 'line'; layer: string; from: XY; to: XY }
  | { kind: 'polyline'; layer: string; points: XY[]; closed: boolean }
  | { kind: 'circle'; layer: string; center: XY; radius: number }
  /** Centred labels are centred on `at` both ways; the others start at it on the baseline. */
  | { kind: 'text'; layer: string; at: XY; height: number; text: string; centered: boolean };

/** The drawing as CAD layers (name and ACI colour) and entities: one source for DXF and DWG. */
export interface CadPlan {
  projection: CrsProjection;
  layers: Array<{ name: string; aci: number }>;
  entities: CadEntity[];
  /** Entities per layer. */
  counts: Record<string, number>;
}

const stripHtml = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Where a road's name goes: the middle of its longest segment. */
function roadLabelPoint(line: XY[]): XY {
  let [best, at]: [number, XY] = [-1, line[0]];
  for (let i = 0; i + 1 < line.length; i++) {
    const length = dist(line[i], line[i + 1]);
    if (length > best) [best, at] = [length, [(line[i][0] + line[i + 1][0]) / 2, (line[i][1] + line[i + 1][1]) / 2]];
  }
  return [Math.round(at[0] * 1000) / 1000, Math.round(at[1] * 1000) / 1000];
}

/**
 * The project drawing in metres of the project's coordinate reference (`crs`; without one, a local
 * transverse Mercator at the drawing's centre): a layer per feature type and type (road class) with
 * its colour, areas and blocks as closed polylines, roads as polylines (two-point ones as lines),
 * zones and objects as circles, names (zones, roads, objects, areas, named blocks) as Cyrillic
 * labels on their own layer (docs/map.md «Выгрузка в CAD»).
 */
export function planCad(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
  crs: ProjectCrs | null = null,
): CadPlan {
  const projection = crsProjection(crs ?? defaultCrs(drawing) ?? localCrs(30.3141, 59.9386));
  const layers = [...MAP_TYPES.map((t) => ({ name: layerOf(t), aci: t.aci })), { name: LABEL_LAYER, aci: LABEL_ACI }];
  const entities: CadEntity[] = [];
  const counts: Record<string, number> = {};
  const add = (e: CadEntity) => {
    entities.push(e);
    counts[e.layer] = (counts[e.layer] ?? 0) + 1;
  };
  const xy = (p: number[]): XY => {
    const [x, y] = projection.forward(p);
    return [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000];
  };
  const label = (at: XY, text: string, height: number) => {
    if (text) add({ kind: 'text', layer: LABEL_LAYER, at, height, text: text.slice(0, 250), centered: true });
  };
  const polygons = (f: GeoFeature): Poly[] =>
    (f.geometry.type === 'Polygon'
      ? [f.geometry.coordinates as number[][][]]
      : f.geometry.type === 'MultiPolygon'
        ? (f.geometry.coordinates as number[][][][])
        : []
    ).map((rings) => rings.map((r) => r.map(xy)));
  const lines = (f: GeoFeature): XY[][] =>
    (f.geometry.type === 'LineString'
      ? [f.geometry.coordinates as number[][]]
      : f.geometry.type === 'MultiLineString'
        ? (f.geometry.coordinates as number[][][])
        : []
    ).map((l) => l.map(xy));

  drawing.features.forEach((f, i) => {
    if (i % 1000 === 0) onProgress(i / drawing.features.length);
    const kind = f.properties.type as MapFeatureType;
    if (!(kind in PREFIX) || kind === 'info') return;
    const type = mapType(kind, f.properties.type_id);
    const layer = layerOf(type);
    const name = typeof f.properties.name === 'string' ? f.properties.name : '';
    if (kind === 'road') {
      const all = lines(f);
      for (const line of all) {
        if (line.length === 2) add({ kind: 'line', layer, from: line[0], to: line[1] });
        else add({ kind: 'polyline', layer, points: line, closed: false });
      }
      if (name && all.length > 0) label(roadLabelPoint(all[0]), name, 6);
    } else if (kind === 'zone' && typeof f.properties.radius === 'number' && f.geometry.type === 'Polygon') {
      const c = centroid(polygons(f)[0]);
      add({ kind: 'circle', layer, center: c, radius: f.properties.radius });
      label(c, name || type.name, 12);
    } else if (f.geometry.type === 'Point') {
      const p = xy(f.geometry.coordinates as number[]);
      const r = typeof f.properties.radius === 'number' && f.properties.radius > 0 ? f.properties.radius : 3;
      add({ kind: 'circle', layer, center: p, radius: r });
      label([p[0], p[1] + r + 4], name || type.name, 4);
    } else
      for (const poly of polygons(f)) {
        for (const ring of poly) add({ kind: 'polyline', layer, points: ring.slice(0, -1), closed: true });
        if (kind !== 'block' || name) label(centroid(poly), name || type.name, kind === 'block' ? 6 : 15);
      }
  });
  for (const f of info.features)
    if (f.geometry.type === 'Point' && typeof f.properties.html_short === 'string') {
      const p = xy(f.geometry.coordinates as number[]);
      add({ kind: 'text', layer: layerOf(mapType('info')), at: p, height: 10, text: stripHtml(f.properties.html_short).slice(0, 250), centered: false });
    }
  onProgress(1);
  return { projection, layers, entities, counts };
}

/** The drawing's extents [minX, minY, maxX, maxY] ($EXTMIN/$EXTMAX), circles with their radius; all zero when empty. */
export function planExtents(entities: CadEntity[]): [number, number, number, number] {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  const extend = ([x, y]: XY, r = 0) => {
    [minX, minY, maxX, maxY] = [Math.min(minX, x - r), Math.min(minY, y - r), Math.max(maxX, x + r), Math.max(maxY, y + r)];
  };
  for (const e of entities) {
    if (e.kind === 'line') [e.from, e.to].forEach((p) => extend(p));
    else if (e.kind === 'polyline') e.points.forEach((p) => extend(p));
    else if (e.kind === 'circle') extend(e.center, e.radius);
    else extend(e.at);
  }
  return Number.isFinite(minX) ? [minX, minY, maxX, maxY] : [0, 0, 0, 0];
}

/** The view a reader opens on (VPORT «*ACTIVE»): `center` in display coordinates around `target`, height and width/height. */
export interface ActiveView {
  center: XY;
  target: XY;
  height: number;
  ratio: number;
}

/**
 * The opening view: the extents with a 5 % margin. The DXF reference puts the view centre (12/22) in
 * display coordinates, whose origin is the view target (17/27/37): AutoCAD and the programs that
 * follow it show target + centre. LibreCAD 2.2 ignores the target and takes the centre for half the
 * view's upper-right corner (its own files write it so: addVport/writeVports of its DXF filter;
 * a true centre there opens an empty screen). So `center` is half the upper-right corner and
 * `target` the rest of the way to the extents' middle: both open on the drawing (docs/map.md).
 */
export function activeView(extents: [number, number, number, number]): ActiveView {
  const [minX, minY, maxX, maxY] = extents;
  const margin = Math.max(maxX - minX, maxY - minY, 1) * 0.05;
  const [width, height] = [maxX - minX + 2 * margin, maxY - minY + 2 * margin];
  const center: XY = [(maxX + margin) / 2, (maxY + margin) / 2];
  const middle: XY = [(minX + maxX) / 2, (minY + maxY) / 2];
  return { center, target: [middle[0] - center[0], middle[1] - center[1]], height, ratio: width / height };
}

/** The XRECORD «NORMA_CRS» in the named object dictionary: the coordinate reference, readable by programs (ezdxf, AutoCAD's API). */
function crsRecord(projection: CrsProjection) {
  return {
    handle: Handle.next(),
    ownerObjectHandle: '0',
    tags(manager: { push(code: number, value: string | number): void }) {
      manager.push(0, 'XRECORD');
      manager.push(5, this.handle);
      manager.push(330, this.ownerObjectHandle);
      manager.push(100, 'AcDbXrecord');
      manager.push(280, 1);
      manager.push(1, projection.name);
      manager.push(1, projection.definition);
      manager.push(90, projection.epsg ?? 0);
    },
  };
}

/** Makes dxf-writer's VPORT «*ACTIVE» (height 1000 at 0,0) the opening view over the drawing. */
function openOn(d: Drawing, view: ActiveView) {
  const table = (d as unknown as { tables: { VPORT: { elements: Array<{ name: string; tags(manager: unknown): void }> } } }).tables.VPORT;
  const active = table.elements.find((v) => v.name === '*ACTIVE');
  if (!active) return;
  const base = active.tags.bind(active);
  active.tags = (manager: { push(code: number, value: string | number): void }) =>
    base({
      push(code: number, value: string | number) {
        if (code === 40 || code === 70) return; // flags and height go after the name, with the view
        manager.push(code, value);
        if (code === 2) {
          for (const [c, v] of [
            [70, 0],
            [10, 0],
            [20, 0],
            [11, 1],
            [21, 1],
            [12, view.center[0]],
            [22, view.center[1]],
          ] as const)
            manager.push(c, v);
          for (const [c, v] of [
            [16, 0],
            [26, 0],
            [36, 1],
            [17, view.target[0]],
            [27, view.target[1]],
            [37, 0],
            [40, view.height],
            [41, view.ratio],
          ] as const)
            manager.push(c, v);
        }
      },
    });
}

/** A TEXT entity in the label style (dxf-writer writes none: readers then take «Standard»). */
class StyledText extends Text {
  tags(manager: { push(code: number, value: string | number): void; point(x: number, y: number): void }) {
    super.tags({
      point: (x, y) => manager.point(x, y),
      push(code, value) {
        manager.push(code, value);
        if (code === 50) manager.push(7, LABEL_STYLE); // after the rotation, where AutoCAD writes it
      },
    });
  }
}

/**
 * The project drawing (planCad) as DXF, written by `dxf-writer`. A drawing whose strings all fit
 * Windows-1251 is AutoCAD 2000 (AC1015) in it ($DWGCODEPAGE ANSI_1251): GDAL, LibreCAD and ezdxf
 * decode it by the header, and GDAL 3.6 follows nothing else. One with a character outside it
 * («é», «½», «₽») is AutoCAD 2007 (AC1021) in UTF-8, which AutoCAD, LibreCAD and ezdxf read as
 * UTF-8 whatever the code page says; it names the code page ANSI_65001 (UTF-8), which GDAL 3.6
 * cannot convert from and so keeps the UTF-8 bytes as they are, with a warning (docs/map.md
 * «Выгрузка в CAD»). «\U+XXXX» escapes are not used: neither GDAL 3.6 nor ezdxf's readfile decodes
 * them. The same project state gives the same bytes: handles start afresh for every file and
 * nothing depends on the clock.
 */
export function writeDxf(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
  crs: ProjectCrs | null = null,
): DxfResult {
  const plan = planCad(drawing, info, onProgress, crs);
  const strings = [plan.projection.name, ...plan.layers.map((l) => l.name), ...plan.entities.map((e) => (e.kind === 'text' ? e.text : ''))];
  const encoding = strings.every(fitsCp1251) ? 'cp1251' : 'utf-8';
  Handle.seed = 0;
  const d = new Drawing();
  const header = d.header.bind(d) as unknown as (name: string, values: Array<[number, string]>) => void;
  header('ACADVER', [[1, encoding === 'cp1251' ? 'AC1015' : 'AC1021']]);
  header('DWGCODEPAGE', [[3, encoding === 'cp1251' ? 'ANSI_1251' : 'ANSI_65001']]);
  d.setUnits('Meters');
  const style = new TextStyle(LABEL_STYLE);
  style.fontFileName = LABEL_FONT;
  (d as unknown as { tables: { STYLE: { add(style: TextStyle): void } } }).tables.STYLE.add(style);
  const record = crsRecord(plan.projection);
  (d as unknown as { dictionary: { addChildDictionary(name: string, child: unknown): void } }).dictionary.addChildDictionary('NORMA_CRS', record);
  const extents = planExtents(plan.entities);
  header('EXTMIN', [
    [10, String(extents[0])],
    [20, String(extents[1])],
    [30, '0'],
  ]);
  header('EXTMAX', [
    [10, String(extents[2])],
    [20, String(extents[3])],
    [30, '0'],
  ]);
  openOn(d, activeView(extents));
  for (const l of plan.layers) d.addLayer(l.name, l.aci, 'CONTINUOUS');
  const layers = (d as unknown as { layers: Record<string, { addShape(shape: unknown): void }> }).layers;
  for (const e of plan.entities) {
    d.setActiveLayer(e.layer);
    if (e.kind === 'line') d.drawLine(e.from[0], e.from[1], e.to[0], e.to[1]);
    else if (e.kind === 'polyline') d.drawPolyline(e.points, e.closed);
    else if (e.kind === 'circle') d.drawCircle(e.center[0], e.center[1], e.radius);
    else
      layers[e.layer].addShape(
        e.centered ? new StyledText(e.at[0], e.at[1], e.height, 0, e.text, 'center', 'middle') : new StyledText(e.at[0], e.at[1], e.height, 0, e.text),
      );
  }
  const text = d.toDxfString();
  return {
    text,
    bytes: encoding === 'cp1251' ? encodeCp1251(text) : new TextEncoder().encode(text),
    encoding,
    projection: plan.projection,
    counts: plan.counts,
  };
}
