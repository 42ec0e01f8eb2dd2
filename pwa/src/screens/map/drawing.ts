import type * as maplibregl from 'maplibre-gl';
import {
  TerraDraw,
  TerraDrawCircleMode,
  TerraDrawLineStringMode,
  TerraDrawPointMode,
  TerraDrawPolygonMode,
  TerraDrawSelectMode,
  type GeoJSONStoreFeatures,
  type HexColor,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { MapFeature, MapTypeStyle } from '../../api/types';
import { styleOf } from '../../maplibre/layers';
import { roundGeometry } from '../../maplibre/precision';
import { SMALL_ZONE_COLOR } from './small-zones';

/**
 * The drawing on the map (Terra Draw, docs/map.md «Экран редактора»): line = road, polygon =
 * area, zone tool = zone (a circle), point = object. Each drawn feature keeps the project's
 * properties under one key, `norma`, beside Terra Draw's own (mode, selection, radius of a circle).
 */
export type DrawnType = 'area' | 'road' | 'zone' | 'object';
export type Tool = 'select' | 'remove' | DrawnType;
export type FeatureId = string | number;
type Props = MapFeature['properties'];

/** Snap distance, px (spec 02 §9). */
export const SNAP_PX = 15;

const MODE_OF: Record<DrawnType, string> = { area: 'polygon', road: 'linestring', zone: 'circle', object: 'point' };
const TYPE_OF_MODE: Record<string, DrawnType> = { polygon: 'area', linestring: 'road', circle: 'zone', point: 'object' };
const GUIDANCE = ['selectionPoint', 'midPoint', 'coordinatePoint', 'snappingPoint', 'closingPoint', 'currentlyDrawing'];

export interface DrawingEvents {
  /** A feature was just drawn (it is not part of the project until saved in its popup). */
  created(id: FeatureId): void;
  /** A kept feature was moved or reshaped. */
  edited(): void;
  /** A kept feature was clicked in the edit tool. */
  selected(id: FeatureId): void;
}

export interface Drawing {
  setTool(tool: Tool | 'view'): void;
  /** Replaces what is drawn; returns the features the tools cannot hold (shown read-only, saved as they are). */
  load(features: MapFeature[]): MapFeature[];
  /** Adds features (e.g. from the coordinate or cadastre dialog); returns their ids. */
  add(features: MapFeature[]): FeatureId[];
  remove(ids: FeatureId[]): void;
  has(id: FeatureId): boolean;
  properties(id: FeatureId): Props | null;
  /** A zone circle's radius in metres, unrounded (null for any other feature). */
  zoneRadius(id: FeatureId): number | null;
  setProperties(id: FeatureId, props: Partial<Props>): void;
  /** A point to anchor a popup at: a point's position, a line's middle vertex, a polygon's first vertex. */
  anchor(id: FeatureId): [number, number] | null;
  /** The drawn features within the snap distance of a map point, in drawing order. */
  featuresAt(lngLat: { lng: number; lat: number }): Array<{ id: FeatureId; geometry: MapFeature['geometry'] }>;
  /** The project features held now, without `exclude` (features still waiting for their popup). */
  features(exclude: ReadonlySet<FeatureId>): MapFeature[];
  /** The type colours, and the smallest zone radius (m): a circle under it is drawn in the warning colour. */
  setStyles(styles: Record<string, MapTypeStyle>, zoneMin: number): void;
  destroy(): void;
}

/**
 * The zone tool: Terra Draw's circle takes its radius from pointer moves only, so on a touch screen,
 * where a tap moves nothing, the second tap closed a circle of the 1 cm starting radius (issue 46).
 * Here each click first counts as a move to where it is: the tap that ends the circle sets the radius.
 */
class TapCircleMode extends TerraDrawCircleMode {
  override onClick(event: Parameters<TerraDrawCircleMode['onClick']>[0]) {
    if (this.state === 'drawing') this.onMouseMove(event);
    super.onClick(event);
  }
}

/** A circle's radius in metres, unrounded; null for any other feature. */
const circleRadiusM = (f: GeoJSONStoreFeatures | undefined) =>
  f?.properties.mode === 'circle' && typeof f.properties.radiusKilometers === 'number' ? f.properties.radiusKilometers * 1000 : null;

const isDrawn = (f: GeoJSONStoreFeatures) =>
  typeof f.properties.mode === 'string' && f.properties.mode in TYPE_OF_MODE && !GUIDANCE.some((k) => f.properties[k]);

type Style<T> = (f: GeoJSONStoreFeatures) => T;

/** The zone tool's styles: a circle under the smallest radius (one saved before the rule) in the warning colour; its dashed outline is small-zones.ts's layer. */
function zoneStyles(color: Style<HexColor>, fillOpacity: Style<number>, zoneMin: () => number) {
  const small = (f: GeoJSONStoreFeatures) => (circleRadiusM(f) ?? Infinity) < zoneMin();
  const zoneColor = (f: GeoJSONStoreFeatures) => (small(f) ? (SMALL_ZONE_COLOR as HexColor) : color(f));
  return { fillColor: zoneColor, fillOpacity, outlineColor: zoneColor, outlineWidth: (f: GeoJSONStoreFeatures) => (small(f) ? 1 : 2) };
}

export function createDrawing(map: maplibregl.Map, events: DrawingEvents): Drawing {
  let styles: Record<string, MapTypeStyle> = {};
  let zoneMin = 0;
  const typeIdOf = (f: GeoJSONStoreFeatures) => ((f.properties.norma ?? {}) as { type_id?: number }).type_id;
  const color = (f: GeoJSONStoreFeatures) => styleOf(styles, typeIdOf(f)).color as HexColor;
  const fillOpacity = (f: GeoJSONStoreFeatures) => styleOf(styles, typeIdOf(f)).fill_opacity;
  const width = (f: GeoJSONStoreFeatures) => styleOf(styles, typeIdOf(f)).width;
  const snapping = { toCoordinate: true, toLine: true };

  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map }),
    modes: [
      new TerraDrawSelectMode({
        pointerDistance: SNAP_PX,
        flags: {
          polygon: { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true, snappable: true } } },
          linestring: { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true, snappable: true } } },
          circle: { feature: { draggable: true } },
          point: { feature: { draggable: true } },
        },
      }),
      new TerraDrawPolygonMode({
        pointerDistance: SNAP_PX,
        snapping,
        styles: { fillColor: color, fillOpacity, outlineColor: color, outlineWidth: 2 },
      }),
      new TerraDrawLineStringMode({ pointerDistance: SNAP_PX, snapping, styles: { lineStringColor: color, lineStringWidth: width } }),
      new TapCircleMode({ pointerDistance: SNAP_PX, styles: zoneStyles(color, fillOpacity, () => zoneMin) }),
      new TerraDrawPointMode({ pointerDistance: SNAP_PX, styles: { pointColor: color, pointWidth: 6, pointOutlineColor: '#ffffff', pointOutlineWidth: 1 } }),
    ],
  });
  draw.start();

  draw.on('finish', (id, context) => {
    const feature = draw.getSnapshotFeature(id);
    if (!feature) return;
    if (context.action === 'draw') {
      const type = TYPE_OF_MODE[context.mode];
      if (!type) return;
      draw.updateFeatureProperties(id, { norma: { type } });
      events.created(id);
    } else events.edited();
  });
  draw.on('select', (id) => events.selected(id));

  const toStore = (f: MapFeature): GeoJSONStoreFeatures | null => {
    const mode = MODE_OF[f.properties.type as DrawnType];
    const geometry = f.geometry;
    if (!mode || (geometry.type !== 'Point' && geometry.type !== 'LineString' && geometry.type !== 'Polygon')) return null;
    const properties: GeoJSONStoreFeatures['properties'] = { mode, norma: { ...f.properties } as never };
    // A circle keeps its radius for Terra Draw's resizing.
    if (f.properties.type === 'zone' && typeof f.properties.radius === 'number') properties.radiusKilometers = f.properties.radius / 1000;
    // Rounded to 7 decimals (about 1 cm): Terra Draw refuses longer tails such as 30.325000000000003.
    return { type: 'Feature', id: draw.getFeatureId(), geometry: roundGeometry(geometry) as GeoJSONStoreFeatures['geometry'], properties };
  };

  const add = (features: MapFeature[]) => {
    const ids: FeatureId[] = [];
    const rejected: MapFeature[] = [];
    const prepared = features.map((f) => [f, toStore(f)] as const);
    const results = draw.addFeatures(prepared.flatMap(([, s]) => (s ? [s] : [])));
    const valid = new Set(results.filter((r) => r.valid).map((r) => r.id));
    for (const [f, s] of prepared) {
      if (s && valid.has(s.id!)) ids.push(s.id!);
      else rejected.push(f);
    }
    return { ids, rejected };
  };

  return {
    setTool(tool) {
      if (tool === 'view' || tool === 'remove') draw.setMode('static');
      else if (tool === 'select') draw.setMode('select');
      else draw.setMode(MODE_OF[tool]);
    },
    load(features) {
      const mode = draw.getMode();
      // Terra Draw's clear() leaves the current mode half-way; start it again after.
      draw.clear();
      draw.setMode(mode);
      return add(features).rejected;
    },
    add: (features) => add(features).ids,
    remove(ids) {
      const present = ids.filter((id) => draw.hasFeature(id));
      if (present.length) draw.removeFeatures(present);
    },
    has: (id) => draw.hasFeature(id),
    properties(id) {
      const f = draw.getSnapshotFeature(id);
      return f ? ({ ...(f.properties.norma as object) } as Props) : null;
    },
    zoneRadius: (id) => circleRadiusM(draw.getSnapshotFeature(id)),
    setProperties(id, props) {
      const current = this.properties(id);
      if (current) draw.updateFeatureProperties(id, { norma: { ...current, ...props } as never });
    },
    anchor(id) {
      const f = draw.getSnapshotFeature(id);
      if (!f) return null;
      const g = f.geometry;
      if (g.type === 'Point') return g.coordinates as [number, number];
      if (g.type === 'LineString') return g.coordinates[Math.floor(g.coordinates.length / 2)] as [number, number];
      const ring = g.coordinates[0];
      // The top vertex: the popup opens above the shape's outline rather than over its middle.
      return ring.reduce((top, p) => (p[1] > top[1] ? p : top), ring[0]) as [number, number];
    },
    featuresAt(lngLat) {
      const found = draw.getFeaturesAtLngLat(lngLat, { pointerDistance: SNAP_PX, ignoreSelectFeatures: true, ignoreCoordinatePoints: true }).filter(isDrawn);
      return found.map((f) => ({ id: f.id!, geometry: f.geometry as MapFeature['geometry'] }));
    },
    features(exclude) {
      return draw
        .getSnapshot()
        .filter((f) => isDrawn(f) && !exclude.has(f.id!))
        .map((f) => {
          const props = { ...(f.properties.norma as object) } as Props;
          if (props.type === 'zone' && typeof f.properties.radiusKilometers === 'number') props.radius = Math.round(f.properties.radiusKilometers * 1000);
          return { type: 'Feature', geometry: f.geometry, properties: props } as MapFeature;
        });
    },
    setStyles(next, min) {
      // Read by the style functions above at the next render (the screen sets them before loading features).
      [styles, zoneMin] = [next, min];
    },
    destroy() {
      draw.stop();
    },
  };
}
