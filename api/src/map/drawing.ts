import type { z } from '@hono/zod-openapi';
import { defaultCrs } from '@norma/workers/map';
import { ZONE_MIN_RADIUS_M, type DrawnCollection } from './schema';

/*
 * A drawing save as stored (issue 24): the document thread validates the body and turns it into the
 * texts written to map_projects, so the main thread neither copies the drawing's value back nor
 * parses, re-checks or serialises it (200 000 points took ~200 ms of the thread that answers
 * everyone). Every writer of the collection columns writes through collectionText, so a stored
 * collection is always `{"type":"FeatureCollection","features":[…]}` and its features can be
 * spliced as text (featuresText).
 */

const PREFIX = '{"type":"FeatureCollection","features":';

/** The stored text of a collection whose features array is `features` (JSON text of an array). */
export const collectionText = (features: string) => `${PREFIX}${features}}`;

/** The features array (JSON text) of a stored collection; null (nothing stored yet) is empty. */
export function featuresText(stored: string | null): string {
  if (!stored) return '[]';
  if (stored.startsWith(PREFIX) && stored.endsWith(']}')) return stored.slice(PREFIX.length, -1);
  // Not written by collectionText (none such is known): read it once the slow way.
  return JSON.stringify((JSON.parse(stored) as { features?: unknown[] }).features ?? []);
}

/** Two features arrays (JSON text) as one, without parsing either. */
export function joinedFeatures(first: string, second: string): string {
  if (first === '[]') return second;
  if (second === '[]') return first;
  return `${first.slice(0, -1)},${second.slice(1)}`;
}

export interface PreparedDrawing {
  /** The drawn features (JSON text of the validated array). */
  drawn: string;
  /** Undo/redo: the snapshot's generated network and labels, as features arrays (JSON text). */
  restore: { general: string; info: string } | null;
  /** The coordinate reference a first drawing fixes (its centre), as stored; null for an empty drawing. */
  firstCrs: string | null;
  /** A save queued offline: the project and version it was drawn on (SaveBase); null for a save made online. */
  base: { projectId: number; updatedAt: number } | null;
  /** The zone circles under ZONE_MIN_RADIUS_M in the drawing: the save refuses those the project never held (service.ts, map_projects.small_zones). */
  smallZones: SmallZone[];
}

/** A drawn zone circle under ZONE_MIN_RADIUS_M: how the refusal names it, its radius (m) and centre (lon, lat). */
export interface SmallZone {
  which: string;
  radius: number;
  centre: [number, number];
}

type Drawn = z.output<typeof DrawnCollection>['features'][number];

/** The middle of a geometry's bounding box (lon, lat): a zone circle's centre, whatever its number of vertices. */
export function centreOf(geometry: { coordinates: unknown }): [number, number] {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] !== 'number') return c.forEach(visit);
    box[0] = Math.min(box[0], c[0]);
    box[1] = Math.min(box[1], c[1] as number);
    box[2] = Math.max(box[2], c[0]);
    box[3] = Math.max(box[3], c[1] as number);
  };
  visit(geometry.coordinates);
  return [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
}

/** Whether a feature is a zone circle under the smallest radius (a zone without a radius takes its type's catchment). */
export const isSmallZone = (p: { type: string; radius?: unknown }) => p.type === 'zone' && typeof p.radius === 'number' && p.radius < ZONE_MIN_RADIUS_M;

function smallZones(features: Drawn[]): SmallZone[] {
  return features.flatMap(({ properties: p, geometry }, i) => {
    if (!isSmallZone(p)) return [];
    const which = p.name?.trim() ? `зона «${p.name.trim().slice(0, 60)}»` : `зона (объект ${i + 1})`;
    return [{ which, radius: p.radius!, centre: centreOf(geometry) }];
  });
}

/** A checked save (DrawnCollection's output) as the service stores it; runs on the document thread. */
export function prepareDrawing(save: z.output<typeof DrawnCollection>): PreparedDrawing {
  return {
    drawn: JSON.stringify(save.features),
    restore: save.restore
      ? { general: JSON.stringify(save.restore.general_feature_collection.features), info: JSON.stringify(save.restore.info_feature_collection.features) }
      : null,
    firstCrs: save.features.length > 0 ? JSON.stringify(defaultCrs(save)) : null,
    base: save.base ? { projectId: save.base.project_id, updatedAt: save.base.updated_at } : null,
    smallZones: smallZones(save.features),
  };
}
