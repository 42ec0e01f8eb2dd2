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
 * The project drawing as DXF (AutoCAD 2007, UTF-8, written by `dxf-writer`) in a local transverse
 * Mercator in metres centred on the drawing: a layer per feature type and type (road class) with its
 * colour, areas and blocks as closed polylines, roads as polylines, zones as circles, labels in
 * Cyrillic on their own layer (docs/map.md «Выгрузка в CAD»).
 */
export function writeDxf(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
): DxfResult {
  const projection = projectionFor(
    (function* () {
      for (const f of drawing.features) yield* positions(f.geometry.coordinates);
    })(),
  );
  const d = new Drawing();
  d.setUnits('Meters');
  for (const t of MAP_TYPES) d.addLayer(layerOf(t), t.aci, 'CONTINUOUS');
  d.addLayer(LABEL_LAYER, 7, 'CONTINUOUS');
  const counts: Record<string, number> = {};
  const add = (layer: string, n = 1) => (counts[layer] = (counts[layer] ?? 0) + n);
  const xy = (p: number[]): XY => {
    const [x, y] = projection.forward(p);
    return [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000];
  };
  const label = (at: XY, text: string, height: number) => {
    if (!text) return;
    d.setActiveLayer(LABEL_LAYER);
    d.drawText(at[0], at[1], height, 0, text.slice(0, 250), 'center', 'middle');
    add(LABEL_LAYER);
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
    d.setActiveLayer(layer);
    const name = typeof f.properties.name === 'string' ? f.properties.name : '';
    if (kind === 'road')
      for (const line of lines(f)) {
        if (line.length === 2) d.drawLine(line[0][0], line[0][1], line[1][0], line[1][1]);
        else d.drawPolyline(line, false);
        add(layer);
      }
    else if (kind === 'zone' && typeof f.properties.radius === 'number' && f.geometry.type === 'Polygon') {
      const c = centroid(polygons(f)[0]);
      d.drawCircle(c[0], c[1], f.properties.radius);
      add(layer);
      label(c, type.name, 12);
    } else if (f.geometry.type === 'Point') {
      const p = xy(f.geometry.coordinates as number[]);
      const r = typeof f.properties.radius === 'number' && f.properties.radius > 0 ? f.properties.radius : 3;
      d.drawCircle(p[0], p[1], r);
      add(layer);
      label([p[0], p[1] + r + 4], name || type.name, 4);
    } else
      for (const poly of polygons(f)) {
        for (const ring of poly) {
          d.drawPolyline(ring.slice(0, -1), true);
          add(layer);
        }
        if (kind !== 'block' || name) label(centroid(poly), name || type.name, kind === 'block' ? 6 : 15);
      }
  });
  for (const f of info.features)
    if (f.geometry.type === 'Point' && typeof f.properties.html_short === 'string') {
      d.setActiveLayer(layerOf(mapType('info')));
      const p = xy(f.geometry.coordinates as number[]);
      d.drawText(p[0], p[1], 10, 0, stripHtml(f.properties.html_short).slice(0, 250));
      add(layerOf(mapType('info')));
    }
  onProgress(1);
  return { text: d.toDxfString(), projection, counts };
}
