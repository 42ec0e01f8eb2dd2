import { DEFAULT_STABILITY_TABLE, type ProductionType } from '@norma/core-wasm';
import { PRODUCTION_TYPE_LABELS, PRODUCTION_TYPES, WORK_KINDS, WORK_KIND_LABELS, type ReferenceTable, type WorkKind } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import { deleteReferenceRows, referenceRows, replaceReferenceRows } from './reference.service';

/**
 * Reference data of METHODOLOGY §4: normative stability coefficients Ку (elements up to and longer
 * than `short_element_max_seconds`) and accuracy ε, by production type and kind of work.
 * Rows with organization_id NULL are the product defaults; an organisation that saved its own
 * edition gets exactly its rows (all eight), so its reports use its methodology.
 */
export { stabilityTableFor, type ReferenceTable, type WorkKind } from '@norma/core-wasm/report';

export interface ReferenceInput {
  source: string;
  edition: string;
  short_element_max_seconds: number;
  rows: { production_type: ProductionType; work_kind: WorkKind; coef_short: number; coef_long: number; accuracy_percent: number }[];
}

const order = (row: { production_type: ProductionType; work_kind: WorkKind }) =>
  WORK_KINDS.indexOf(row.work_kind) * PRODUCTION_TYPES.length + PRODUCTION_TYPES.indexOf(row.production_type);

/**
 * How the product's defaults are named to users. The seeded rows carry a developer note
 * («…(METHODOLOGY §4)», edition «default»); reports and screens show these words instead (issue 28).
 */
export const DEFAULT_REFERENCE_SOURCE = 'Значения по умолчанию Norma';
export const DEFAULT_REFERENCE_EDITION = 'базовая редакция';

/** The table an organisation's reports use: its own edition, or the defaults. */
export async function referenceTable(db: Db, organizationId: number): Promise<ReferenceTable> {
  const rows = await referenceRows(db, organizationId);
  const own = rows.filter((r) => r.organization_id === organizationId);
  const chosen = (own.length > 0 ? own : rows.filter((r) => r.organization_id === null)).sort((a, b) => order(a) - order(b));
  const first = chosen[0];
  return {
    is_default: own.length === 0,
    source: own.length === 0 ? DEFAULT_REFERENCE_SOURCE : (first?.source ?? DEFAULT_STABILITY_TABLE.source),
    edition: own.length === 0 ? DEFAULT_REFERENCE_EDITION : (first?.edition ?? DEFAULT_STABILITY_TABLE.edition),
    short_element_max_seconds: first?.short_element_max_seconds ?? DEFAULT_STABILITY_TABLE.shortElementMaxSeconds,
    updated_at: first?.updated_at ? new Date(first.updated_at).toISOString() : null,
    updated_by: first?.firstName || first?.lastName ? `${first.lastName ?? ''} ${first.firstName ?? ''}`.trim() : null,
    rows: chosen.map((r) => ({
      production_type: r.production_type,
      production_type_label: PRODUCTION_TYPE_LABELS[r.production_type],
      work_kind: r.work_kind,
      work_kind_label: WORK_KIND_LABELS[r.work_kind],
      coef_short: r.coef_short,
      coef_long: r.coef_long,
      accuracy_percent: r.accuracy_percent,
    })),
  };
}

/** Saves the organisation's own edition (all eight rows at once, in one transaction). */
export async function saveReferenceTable(db: Db, organizationId: number, userId: string, input: ReferenceInput): Promise<void> {
  const now = Date.now();
  await replaceReferenceRows(
    db,
    organizationId,
    input.rows.map((row) => ({
      organization_id: organizationId,
      production_type: row.production_type,
      work_kind: row.work_kind,
      coef_short: row.coef_short,
      coef_long: row.coef_long,
      accuracy_percent: row.accuracy_percent,
      short_element_max_seconds: input.short_element_max_seconds,
      source: input.source,
      edition: input.edition,
      updated_at: now,
      updated_by: userId,
    })),
  );
}

/** Drops the organisation's own edition: its reports use the defaults again. */
export async function resetReferenceTable(db: Db, organizationId: number): Promise<void> {
  await deleteReferenceRows(db, organizationId);
}
