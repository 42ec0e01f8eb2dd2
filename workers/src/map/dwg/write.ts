import { planCad } from '../dxf';
import { writeR2000, type DwgOptions } from './r2000';
import type { CrsProjection, ProjectCrs } from '../crs';
import type { GeoCollection } from '../network';

export { DwgLimitError } from './r2000';
export type { DwgTextEncoding } from './cp1251';

export interface DwgResult {
  bytes: Uint8Array;
  projection: CrsProjection;
  /** Entities written per layer. */
  counts: Record<string, number>;
}

/**
 * The project drawing as AutoCAD 2000 DWG (AC1015, code page ANSI_1251): the same layers, colours,
 * entities and labels as the DXF (planCad), written by our own R2000 writer (docs/map.md «DWG»).
 */
export function writeDwg(
  drawing: GeoCollection,
  info: GeoCollection = { type: 'FeatureCollection', features: [] },
  onProgress: (share: number) => void = () => {},
  options: DwgOptions = {},
  crs: ProjectCrs | null = null,
): DwgResult {
  const plan = planCad(drawing, info, (share) => onProgress(share * 0.8), crs);
  const bytes = writeR2000(plan.layers, plan.entities, options);
  onProgress(1);
  return { bytes, projection: plan.projection, counts: plan.counts };
}
