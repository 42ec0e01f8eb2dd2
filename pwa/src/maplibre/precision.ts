/**
 * Decimal places of a coordinate handed to the drawing: 7 is about 1 cm. Terra Draw refuses a
 * feature with more decimals than it keeps (a tail such as 30.325000000000003 from arithmetic)
 * and reports it as an invalid polygon; the server rounds the same way (api/src/map/menus.ts).
 */
export const COORDINATE_DECIMALS = 7;
const SCALE = 10 ** COORDINATE_DECIMALS;

export const roundCoordinate = (value: number) => Math.round(value * SCALE) / SCALE;

type Position = number[];

/** A ring or line with every coordinate rounded and the points that became repeats of their neighbour dropped. */
function roundPath(path: Position[]): Position[] {
  return path.map((point) => point.map(roundCoordinate)).filter((point, i, all) => i === 0 || point[0] !== all[i - 1]![0] || point[1] !== all[i - 1]![1]);
}

/** A point, line or polygon geometry with its coordinates rounded to COORDINATE_DECIMALS. */
export function roundGeometry<G extends { type: string; coordinates: unknown }>(geometry: G): G {
  if (geometry.type === 'Point') return { ...geometry, coordinates: (geometry.coordinates as Position).map(roundCoordinate) };
  if (geometry.type === 'LineString') return { ...geometry, coordinates: roundPath(geometry.coordinates as Position[]) };
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: (geometry.coordinates as Position[][]).map(roundPath) };
  return geometry;
}
