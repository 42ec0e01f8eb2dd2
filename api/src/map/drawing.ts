import type { z } from '@hono/zod-openapi';
import { defaultCrs } from '@norma/workers/map';
import type { DrawnCollection } from './schema';

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
  };
}
