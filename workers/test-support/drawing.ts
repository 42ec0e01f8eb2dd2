import type { GeoCollection, GeoFeature } from '../src/map/network';

/** Drawings for map and CAD tests, in the editor's GeoJSON (longitude, latitude). */
export const featureCollection = (features: GeoFeature[]): GeoCollection => ({ type: 'FeatureCollection', features });

/** A closed rectangle's ring from its south-west corner, `w` and `h` degrees of longitude and latitude. */
export const rectangleRing = (lon: number, lat: number, w: number, h: number) => [
  [lon, lat],
  [lon + w, lat],
  [lon + w, lat + h],
  [lon, lat + h],
  [lon, lat],
];

/** A feature of the editor's `type` (area, road, zone, …) with its properties. */
export const feature = (type: string, geometry: GeoFeature['geometry'], props: Record<string, unknown> = {}): GeoFeature => ({
  type: 'Feature',
  geometry,
  properties: { type, ...props },
});
