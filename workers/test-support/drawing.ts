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

/**
 * The drawn district of the CAD tests (tests/cad): two territories side by side — «Жилой район
 * «Север»» and a park — «улица Ленина» along their southern edge and the school zone «Школа № 1».
 * `more` adds what the readers' test checks besides: the avenue «Проспект Мира» (three vertices,
 * west of the district), the house «Дом № 5» and a bus stop.
 */
export function cadDistrict({ more = false } = {}): GeoCollection {
  const line = (coordinates: number[][]) => ({ type: 'LineString' as const, coordinates });
  return featureCollection([
    feature('area', { type: 'Polygon', coordinates: [rectangleRing(30.3, 59.93, 0.02, 0.01)] }, { type_id: 10, name: 'Жилой район «Север»' }),
    feature('area', { type: 'Polygon', coordinates: [rectangleRing(30.32, 59.93, 0.01, 0.01)] }, { type_id: 13 }),
    feature(
      'road',
      line([
        [30.3, 59.93],
        [30.32, 59.93],
      ]),
      { type_id: 1, name: 'улица Ленина' },
    ),
    ...(more
      ? [
          feature(
            'road',
            line([
              [30.29, 59.935],
              [30.295, 59.9352],
              [30.2995, 59.935],
            ]),
            { type_id: 2, name: 'Проспект Мира' },
          ),
        ]
      : []),
    feature('zone', { type: 'Polygon', coordinates: [rectangleRing(30.305, 59.934, 0.002, 0.001)] }, { type_id: 20, radius: 500, name: 'Школа № 1' }),
    ...(more
      ? [
          feature('object', { type: 'Point', coordinates: [30.306, 59.933] }, { type_id: 30, name: 'Дом № 5' }),
          feature('object', { type: 'Point', coordinates: [30.307, 59.9335] }, { type_id: 31, radius: 6 }),
        ]
      : []),
  ]);
}
