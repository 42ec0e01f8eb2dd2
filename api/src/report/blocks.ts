import { assembleBlockReport } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import type { BlockReportBody } from './schema';
import { loadReportInputs } from './service';

/**
 * GET /api/v2/report and /api/v3/compute-report: the whole analysis of a structure for a period,
 * assembled by @norma/core-wasm/report from the report inputs, as in the PWA. The block types
 * there are loose; the zod schema (schema.ts) is the contract, checked by report.contract.test.ts.
 */
export async function buildBlockReport(db: Db, structureId: number, from: number, to: number): Promise<BlockReportBody> {
  return assembleBlockReport(await loadReportInputs(db, structureId, from, to, { videos: false })) as BlockReportBody;
}
