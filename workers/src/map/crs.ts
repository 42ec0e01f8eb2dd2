import proj4 from 'proj4';
import { centreOf, localProjection, type Projection } from './geo';

/**
 * A project's coordinate reference (docs/map.md «Система координат проекта»): chosen once — by
 * default a local transverse Mercator at the centre of the first drawing — and kept with the
 * project, so every export of it uses the same metres and versions overlay exactly. The analyst may
 * pick a national grid instead: a Gauss–Krüger zone of СК-42 or a UTM zone (WGS 84).
 * `lon`/`lat` — the anchor (the first drawing's centre): the local grid's origin, and the point the
 * algorithms measure around in every case.
 */
export const CRS_KINDS = ['local', 'sk42', 'utm'] as const;
export type CrsKind = (typeof CRS_KINDS)[number];
export interface ProjectCrs {
  kind: CrsKind;
  lon: number;
  lat: number;
  /** Gauss–Krüger (sk42) or UTM zone; none for the local grid. */
  zone?: number;
}

export interface CrsProjection extends Projection {
  crs: ProjectCrs;
  /** Russian name shown in the editor and written into the file. */
  name: string;
  /** EPSG code of a national grid (the local grid has none). */
  epsg: number | null;
  /** ESRI/OGC WKT 1, the text of the `.prj` beside an export. */
  wkt: string;
}

/** ГОСТ 32453-2017 parameters from СК-42 to WGS 84 (Helmert, position vector). */
const SK42_TOWGS84 = [23.57, -140.95, -79.8, 0, 0.35, 0.79, -0.22];

const WGS84_GEOGCS = 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]';
const SK42_GEOGCS = `GEOGCS["Pulkovo 1942",DATUM["Pulkovo_1942",SPHEROID["Krassowsky 1940",6378245,298.3],TOWGS84[${SK42_TOWGS84.join(',')}]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]`;

const tm = (name: string, geogcs: string, lat0: number, lon0: number, k: number, x0: number, y0: number, epsg: number | null) =>
  `PROJCS["${name}",${geogcs},PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",${lat0}],PARAMETER["central_meridian",${lon0}],` +
  `PARAMETER["scale_factor",${k}],PARAMETER["false_easting",${x0}],PARAMETER["false_northing",${y0}],UNIT["metre",1],AXIS["Easting",EAST],AXIS["Northing",NORTH]` +
  (epsg ? `,AUTHORITY["EPSG","${epsg}"]]` : ']');

/** Six-degree zone of a longitude (1–60), the numbering UTM and Gauss–Krüger share up to an offset of 30. */
const gkZone = (lon: number) => Math.min(60, Math.max(1, Math.floor(lon / 6) + 1));
const utmZone = (lon: number) => Math.min(60, Math.max(1, Math.floor((lon + 180) / 6) + 1));

/** The anchor rounded to 1e-6° (≈ 10 cm): the same text in every definition written. */
const anchor = (lon: number, lat: number): { lon: number; lat: number } => ({ lon: Number(lon.toFixed(6)), lat: Number(lat.toFixed(6)) });

export function localCrs(lon: number, lat: number): ProjectCrs {
  return { kind: 'local', ...anchor(lon, lat) };
}

/** The CRS of a kind for a project anchored at lon/lat (a national grid takes the zone the anchor lies in). */
export function crsOfKind(kind: CrsKind, lon: number, lat: number): ProjectCrs {
  const a = anchor(lon, lat);
  if (kind === 'sk42') return { kind, ...a, zone: gkZone(lon) };
  if (kind === 'utm') return { kind, ...a, zone: utmZone(lon) };
  return { kind: 'local', ...a };
}

export function crsProjection(crs: ProjectCrs): CrsProjection {
  const { lon, lat } = anchor(crs.lon, crs.lat);
  if (crs.kind === 'sk42') {
    const zone = crs.zone ?? gkZone(lon);
    const lon0 = zone * 6 - 3;
    const x0 = zone * 1_000_000 + 500_000;
    const definition = `+proj=tmerc +lat_0=0 +lon_0=${lon0} +k=1 +x_0=${x0} +y_0=0 +ellps=krass +towgs84=${SK42_TOWGS84.join(',')} +units=m +no_defs`;
    const epsg = zone >= 2 && zone <= 32 ? 28400 + zone : null;
    const name = `СК-42, зона Гаусса–Крюгера ${zone}`;
    return {
      ...projectionOf(definition),
      crs: { kind: 'sk42', lon, lat, zone },
      name,
      epsg,
      wkt: tm(`Pulkovo 1942 / Gauss-Kruger zone ${zone}`, SK42_GEOGCS, 0, lon0, 1, x0, 0, epsg),
    };
  }
  if (crs.kind === 'utm') {
    const zone = crs.zone ?? utmZone(lon);
    const lon0 = zone * 6 - 183;
    const definition = `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`;
    const epsg = 32600 + zone;
    return {
      ...projectionOf(definition),
      crs: { kind: 'utm', lon, lat, zone },
      name: `WGS 84 / UTM, зона ${zone}N`,
      epsg,
      wkt: tm(`WGS 84 / UTM zone ${zone}N`, WGS84_GEOGCS, 0, lon0, 0.9996, 500000, 0, epsg),
    };
  }
  const local = localProjection(lon, lat);
  return {
    ...local,
    crs: { kind: 'local', lon, lat },
    name: `Местная поперечная Меркатора, центр ${lat.toFixed(6)}° с. ш., ${lon.toFixed(6)}° в. д. (WGS 84)`,
    epsg: null,
    wkt: tm('Norma local transverse Mercator', WGS84_GEOGCS, lat, lon, 1, 0, 0, null),
  };
}

function projectionOf(definition: string): Projection {
  const converter = proj4('EPSG:4326', definition);
  return {
    definition,
    forward: (p) => converter.forward([p[0], p[1]]) as [number, number],
    inverse: (xy) => converter.inverse(xy) as [number, number],
  };
}

/** The project's default CRS: the local grid at the centre of its drawn features (null: nothing drawn). */
export function defaultCrs(drawn: { features: Array<{ geometry: { coordinates: unknown } }> }): ProjectCrs | null {
  const centre = centreOf(
    (function* () {
      for (const f of drawn.features) yield* positionsOf(f.geometry.coordinates);
    })(),
  );
  return centre ? localCrs(centre[0], centre[1]) : null;
}

function* positionsOf(value: unknown): Generator<number[]> {
  if (Array.isArray(value) && typeof value[0] === 'number') yield value as number[];
  else if (Array.isArray(value)) for (const v of value) yield* positionsOf(v);
}
