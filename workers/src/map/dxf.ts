import Drawing from 'dxf-writer';
import { MAP_TYPES, mapType, type MapFeatureType, type MapType } from './catalog';
import { centroid, projectionFor, type Poly, type Projection, type XY } from './geo';
import type { GeoCollection, GeoFeature } from './network';

const PREFIX: Record<MapFeatureType, string> = { area: 'Территории', road: 'Дороги', zone: 'Зоны', object: 'Объекты', block: 'Кварталы', info: 'Сведения' };
export const LABEL_LAYER = 'Подписи';

/** The DXF layer of a type: kind and type name, e.g. «Дороги_Магистральная_улица» (no characters DXF forbids). */
export const layerOf = (type: MapType) => `${PREFIX[type.feature_type]}_${type.name}`.replace(/[<>/\\":;?*|=`,.]/g, '').replace(/\s+/g, '_');

export interface DxfResult {
  text: string;
  projection: Projection;
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
  projection: Projection;
  layers: Array<{ name: string; aci: number }>;
  entities: CadEntity[];
  /** Entities per layer. */
  counts: Record<string, number>;
}

function* positions(value: unknown): Generator<number[]> {
  if (Array.isArray(value) && typeof value[0] === 'number') yield value as number[];
  else if (Array.isArray(value)) for (const v of value) yield* positions(v);
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

/**
 * The project drawing in a local transverse Mercator in metres centred on the drawing: a layer per
 * feature type and type (road class) with its colour, areas and blocks as closed polylines, roads as
 * polylines (two-point ones as lines), zones and objects as circles, labels in Cyrillic on their own
 * layer (docs/map.md «Выгрузка в CAD»).
 */
export function planCad(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
): CadPlan {
  const projection = projectionFor(
    (function* () {
      for (const f of drawing.features) yield* positions(f.geometry.coordinates);
    })(),
  );
  const layers = [...MAP_TYPES.map((t) => ({ name: layerOf(t), aci: t.aci })), { name: LABEL_LAYER, aci: 7 }];
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
    if (kind === 'road')
      for (const line of lines(f)) {
        if (line.length === 2) add({ kind: 'line', layer, from: line[0], to: line[1] });
        else add({ kind: 'polyline', layer, points: line, closed: false });
      }
    else if (kind === 'zone' && typeof f.properties.radius === 'number' && f.geometry.type === 'Polygon') {
      const c = centroid(polygons(f)[0]);
      add({ kind: 'circle', layer, center: c, radius: f.properties.radius });
      label(c, type.name, 12);
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

/** The project drawing (planCad) as DXF: AutoCAD 2007, UTF-8, written by `dxf-writer`. */
export function writeDxf(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
): DxfResult {
  const plan = planCad(drawing, info, onProgress);
  const d = new Drawing();
  d.setUnits('Meters');
  for (const l of plan.layers) d.addLayer(l.name, l.aci, 'CONTINUOUS');
  for (const e of plan.entities) {
    d.setActiveLayer(e.layer);
    if (e.kind === 'line') d.drawLine(e.from[0], e.from[1], e.to[0], e.to[1]);
    else if (e.kind === 'polyline') d.drawPolyline(e.points, e.closed);
    else if (e.kind === 'circle') d.drawCircle(e.center[0], e.center[1], e.radius);
    else if (e.centered) d.drawText(e.at[0], e.at[1], e.height, 0, e.text, 'center', 'middle');
    else d.drawText(e.at[0], e.at[1], e.height, 0, e.text);
  }
  return { text: d.toDxfString(), projection: plan.projection, counts: plan.counts };
}
