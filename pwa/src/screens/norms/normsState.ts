import { proxy } from 'valtio';
import { api, ApiCallError } from '../../api/client';
import type { AdminUsersReply, NamedItem, NormCard, NormDiff, NormList, NormParams, ReportDates } from '../../api/types';

/**
 * The norm card screen's state (docs/norms.md), outside the components: the structure's versions,
 * the version on screen, its differences from the version in force, and the days and employees
 * a new study can be built from. Every call goes through the API client, which shows failures.
 */
export const normsState = proxy({
  structureId: null as number | null,
  list: null as NormList | null,
  card: null as NormCard | null,
  diff: null as NormDiff | null,
  dates: null as ReportDates | null,
  employees: [] as NamedItem[],
  /** Day-and-employee pairs chosen for a new draft, "yyyy-mm-dd:employeeId". */
  chosen: [] as string[],
  busy: false,
  error: null as string | null,
  /**
   * The draft changed after it was shown and the approval was refused (409, issue 39): the server's
   * message, the revisions and the figures that differ between what was read and the card now on
   * screen, so the approver reads them before approving again.
   */
  changed: null as DraftChange | null,
  /** For an administrator: the organisation's analysts and which of them may approve norms. */
  analysts: [] as AdminUsersReply['users'],
  approvers: [] as string[],
});

/** What changed in a draft between the revision an approver read and the one now on screen. */
export interface DraftChange {
  message: string;
  readRevision: number;
  revision: number;
  figures: { key: string; label: string; unit: string; before: number | null; after: number | null }[];
}

/** The figures whose values differ between two revisions of a card (by key; a figure on one side only counts too). */
export function changedFigures(read: NormCard, now: NormCard): DraftChange['figures'] {
  const before = new Map(read.card.figures.map((f) => [f.key, f.value]));
  const keys = new Set([...read.card.figures.map((f) => f.key), ...now.card.figures.map((f) => f.key)]);
  const labels = new Map([...read.card.figures, ...now.card.figures].map((f) => [f.key, f]));
  const after = new Map(now.card.figures.map((f) => [f.key, f.value]));
  return [...keys]
    .filter((key) => (before.get(key) ?? null) !== (after.get(key) ?? null))
    .map((key) => ({ key, label: labels.get(key)!.label, unit: labels.get(key)!.unit, before: before.get(key) ?? null, after: after.get(key) ?? null }));
}

async function run(task: () => Promise<void>) {
  normsState.busy = true;
  normsState.error = null;
  try {
    await task();
  } catch (err) {
    normsState.error = err instanceof Error ? err.message : String(err);
  } finally {
    normsState.busy = false;
  }
}

async function showVersion(id: number) {
  const [card, diff] = await Promise.all([api.get('/api/v1/norms/{id}', { path: { id } }), api.get('/api/v1/norms/{id}/diff', { path: { id } })]);
  normsState.card = card;
  normsState.diff = diff.before ? diff : null;
}

async function reloadList(structureId: number) {
  normsState.list = await api.get('/api/v1/norms', { query: { structure_id: structureId } });
}

export function openStructure(structureId: number) {
  normsState.structureId = structureId;
  normsState.card = null;
  normsState.diff = null;
  normsState.changed = null;
  normsState.chosen = [];
  return run(async () => {
    const [, dates, employees] = await Promise.all([
      reloadList(structureId),
      api.get('/api/v1/report/dates', { query: { structure_id: structureId } }),
      api.get('/api/v1/employees', { query: { structure_id: structureId } }),
    ]);
    normsState.dates = dates;
    normsState.employees = employees;
    const first = normsState.list?.versions[0];
    if (first) await showVersion(first.id);
  });
}

export const selectVersion = (id: number) => {
  normsState.changed = null;
  return run(() => showVersion(id));
};

export function toggleChosen(key: string) {
  normsState.chosen = normsState.chosen.includes(key) ? normsState.chosen.filter((k) => k !== key) : [...normsState.chosen, key].sort();
}

/** The chosen day-and-employee pairs as whole shift-days (METHODOLOGY §7: a night shift is one shift-day, dated by its start). */
export function chosenWindows(chosen: readonly string[]) {
  return chosen.map((key) => {
    const [date, employee] = key.split(':') as [string, string];
    return { employee_id: Number(employee), date };
  });
}

export function createDraft() {
  const { structureId, dates } = normsState;
  if (structureId === null || !dates) return Promise.resolve();
  if (normsState.chosen.length === 0) {
    normsState.error = 'Выберите хотя бы один день сотрудника';
    return Promise.resolve();
  }
  return run(async () => {
    const card = await api.post('/api/v1/norms', {
      query: { structure_id: structureId },
      body: { windows: chosenWindows(normsState.chosen) },
    });
    normsState.chosen = [];
    await reloadList(structureId);
    await showVersion(card.id);
  });
}

export function saveParams(params: NormParams) {
  const card = normsState.card;
  if (!card) return Promise.resolve();
  return run(async () => {
    await api.put('/api/v1/norms/{id}', { path: { id: card.id }, body: { params } });
    await showVersion(card.id);
  });
}

/**
 * Approves the card on screen at the revision on screen: the server refuses (409) a draft changed
 * since, and then the card is read again and shown with what changed, for the approver to read
 * before he approves again (docs/norms.md).
 */
export function approve(effectiveFrom: string, overrideComment?: string) {
  const card = normsState.card;
  if (!card) return Promise.resolve();
  normsState.changed = null;
  return run(async () => {
    try {
      await api.post('/api/v1/norms/{id}/approve', {
        path: { id: card.id },
        body: { effective_from: effectiveFrom, revision: card.revision, ...(overrideComment ? { override_comment: overrideComment } : {}) },
        quiet: true,
      });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.status === 409)) throw err;
      await reloadList(card.structure_id);
      await showVersion(card.id);
      const now = normsState.card as NormCard | null;
      if (now) normsState.changed = { message: err.message, readRevision: card.revision, revision: now.revision, figures: changedFigures(card, now) };
      return;
    }
    await reloadList(card.structure_id);
    await showVersion(card.id);
  });
}

/** The administrator's panel: analysts and the right to approve norms (docs/norms.md). */
export function loadApprovers() {
  return run(async () => {
    const [users, approvers] = await Promise.all([api.get('/api/v1/admin/users'), api.get('/api/v1/norm_approvers')]);
    normsState.analysts = users.users.filter((u) => u.role === 'analyst');
    normsState.approvers = approvers.approvers.map((a) => a.user_id);
  });
}

export function setApprover(userId: string, allowed: boolean) {
  return run(async () => {
    const path = { userId };
    const reply = allowed ? await api.put('/api/v1/norm_approvers/{userId}', { path }) : await api.delete('/api/v1/norm_approvers/{userId}', { path });
    normsState.approvers = reply.approvers.map((a) => a.user_id);
  });
}
