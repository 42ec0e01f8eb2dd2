import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import { approveDraft, createDraft } from '../norms/service';
import { reportDates } from '../report/service';

/**
 * One approved norm card in the demo (docs/norms.md, docs/demo-data.md): the first workshop's
 * first two days of every employee, built by the analyst and approved by the administrator, in
 * force from the first of them, so a visitor sees a norm in force, its fulfilment in the reports,
 * and can start a new draft beside it.
 */
export async function seedDemoNorm(db: Db, structureId: number, timeZone: string, analyst: SessionUser, admin: SessionUser): Promise<void> {
  const { dates, employees } = await reportDates(db, structureId, timeZone);
  const studied = dates.slice(0, 2);
  if (studied.length === 0) return;
  // Whole shift-days (METHODOLOGY §7), as the PWA chooses them.
  const windows = studied.flatMap((date) => (employees[date] ?? []).map((employeeId) => ({ employee_id: employeeId, date })));
  const draft = await createDraft(db, analyst, structureId, { title: 'Сборка редуктора: норма по хронометражу', windows });
  // In force from the first studied day, so the demo's own reports show norm fulfilment.
  await approveDraft(db, admin, draft.id, { effective_from: studied[0]!, revision: draft.revision });
}
