import { proxy } from 'valtio';
import { RATING_MAX, RATING_MIN } from '@norma/core-wasm/norms';
import { api, ApiCallError } from '../../api/client';
import type { AdminUsersReply, NamedItem, NormCard, NormDiff, NormList, NormParams, OperationsReply, ReportDates } from '../../api/types';

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
  /** The structure's shifts (names, in the settings' order) and its main and auxiliary operations, for the draft's parameters. */
  shifts: [] as string[],
  operations: [] as { id: number; name: string }[],
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
  /** The approval refused for what the card is (409: «не рассчитано…», an unstable series without a comment): the server's message. */
  refusal: null as string | null,
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
  normsState.refusal = null;
  normsState.chosen = [];
  return run(async () => {
    const [, dates, employees, settings, operations] = await Promise.all([
      reloadList(structureId),
      api.get('/api/v1/report/dates', { query: { structure_id: structureId } }),
      api.get('/api/v1/employees', { query: { structure_id: structureId } }),
      api.get('/api/v1/structure/{id}', { path: { id: structureId } }),
      api.get('/api/v1/operations', { query: { structure_id: structureId } }),
    ]);
    normsState.dates = dates;
    normsState.employees = employees;
    normsState.shifts = settings.shifts.map((sh) => sh.name);
    normsState.operations = unitCandidates(operations);
    const first = normsState.list?.versions[0];
    if (first) await showVersion(first.id);
  });
}

export const selectVersion = (id: number) => {
  normsState.changed = null;
  normsState.refusal = null;
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
  normsState.refusal = null;
  return run(async () => {
    await api.put('/api/v1/norms/{id}', { path: { id: card.id }, body: { params } });
    await showVersion(card.id);
  });
}

/** The API's code of an approval refused because the draft changed after it was read (api/src/norms/service.ts). */
export const DRAFT_CHANGED_CODE = 'norm_draft_changed';

/**
 * Approves the card on screen at the revision on screen: the server refuses (409) a draft changed
 * since, and then the card is read again and shown with what changed, for the approver to read
 * before he approves again (docs/norms.md). Any other 409 (the card is «не рассчитано», an unstable
 * series without a comment, already approved) shows the server's message, not the changes.
 */
export function approve(effectiveFrom: string, overrideComment?: string) {
  const card = normsState.card;
  if (!card) return Promise.resolve();
  normsState.changed = null;
  normsState.refusal = null;
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
      if (err.code !== DRAFT_CHANGED_CODE) normsState.refusal = err.message;
      else if (now) normsState.changed = { message: err.message, readRevision: card.revision, revision: now.revision, figures: changedFigures(card, now) };
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

/** The operations that can make up a unit: main and auxiliary ones of the structure (losses cannot). */
export function unitCandidates(reply: OperationsReply): { id: number; name: string }[] {
  return reply.operations.filter((o) => o.type === 'main' || o.type === 'aux').map((o) => ({ id: o.id, name: o.name }));
}

/** A number typed the Russian way ("12,5"); empty → null; anything else → NaN. */
export function parseRu(text: string): number | null {
  const t = text.trim().replace(/\s/g, '').replace(',', '.');
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

export type ManualSource = NormParams['manual_times'][number]['source'];
/** The sources of a time entered by hand, as the API names them (METHODOLOGY §7). */
export const MANUAL_SOURCES: { value: ManualSource; label: string }[] = [
  { value: 'mtm', label: 'МТМ' },
  { value: 'micro', label: 'микроэлементные нормативы' },
  { value: 'reference', label: 'справочник' },
  { value: 'other', label: 'другое' },
];
/** The API's bounds of a time entered by hand and of its note (api/src/norms/schema.ts). */
export const MANUAL_MAX_MINUTES = 100_000;
export const MANUAL_NOTE_MAX = 500;
export const EMPLOYEE_RATINGS_MAX = 200;

/** A row of the form: the time of an operation without measurements, as typed. */
export interface ManualRow {
  operationId: number;
  name: string;
  minutes: string;
  source: ManualSource;
  note: string;
}

type Parsed<T> = { value: T; problem: null } | { value: null; problem: string };

/**
 * The times typed by hand as the API takes them: a row with no time is no hand time; a bad one is
 * the Russian message the form shows before anything is sent.
 */
export function manualTimes(rows: readonly ManualRow[]): Parsed<NormParams['manual_times']> {
  const value: NormParams['manual_times'] = [];
  for (const row of rows) {
    const minutes = parseRu(row.minutes);
    if (minutes === null) continue;
    if (Number.isNaN(minutes) || minutes <= 0) return { value: null, problem: `Время «${row.name}»: число минут больше 0, дробная часть — через запятую` };
    if (minutes > MANUAL_MAX_MINUTES) return { value: null, problem: `Время «${row.name}»: не больше ${MANUAL_MAX_MINUTES.toLocaleString('ru-RU')} мин` };
    const note = row.note.trim();
    if (note.length > MANUAL_NOTE_MAX) return { value: null, problem: `Примечание к «${row.name}»: не длиннее ${MANUAL_NOTE_MAX} символов` };
    value.push({ operation_id: row.operationId, minutes, source: row.source, note });
  }
  return { value, problem: null };
}

/** A row of the form: an employee's rating (темп), as typed; empty — the card's common one. */
export interface RatingRow {
  employeeId: number;
  name: string;
  percent: string;
}

/** A rating typed in the form, checked against the API's bounds; `what` names it in the message. */
export function ratingProblem(value: number | null, what: string): string | null {
  if (value === null) return null;
  if (Number.isNaN(value) || value < RATING_MIN || value > RATING_MAX) return `${what}: число от ${RATING_MIN} до ${RATING_MAX} %`;
  return null;
}

/** The employees' ratings as the API takes them, or the Russian message of the first bad one. */
export function employeeRatings(rows: readonly RatingRow[]): Parsed<NormParams['employee_ratings']> {
  const value: NormParams['employee_ratings'] = [];
  for (const row of rows) {
    const percent = parseRu(row.percent);
    const problem = ratingProblem(percent, `Оценка темпа «${row.name}»`);
    if (problem) return { value: null, problem };
    if (percent !== null) value.push({ employee_id: row.employeeId, rating_percent: percent });
  }
  if (value.length > EMPLOYEE_RATINGS_MAX) return { value: null, problem: `Оценка темпа — не больше чем для ${EMPLOYEE_RATINGS_MAX} сотрудников` };
  return { value, problem: null };
}

/** The basis's employees (the card's windows), each once, with the rating the card has for him. */
export function ratingRows(card: NormCard): RatingRow[] {
  const given = new Map(card.params.employee_ratings.map((r) => [r.employee_id, r.rating_percent]));
  const rows = new Map<number, RatingRow>();
  for (const w of card.windows) {
    if (rows.has(w.employee_id)) continue;
    const percent = given.get(w.employee_id);
    rows.set(w.employee_id, { employeeId: w.employee_id, name: w.employee_name, percent: percent === undefined ? '' : String(percent).replace('.', ',') });
  }
  return [...rows.values()];
}

/** The operations of the card without accepted measurements, each with its hand time if it has one. */
export function manualRows(card: NormCard): ManualRow[] {
  const given = new Map(card.params.manual_times.map((m) => [m.operation_id, m]));
  return card.card.operations
    .filter((o) => o.time_source !== 'measured')
    .map((o) => {
      const m = given.get(o.operation_id);
      return {
        operationId: o.operation_id,
        name: o.name,
        minutes: m ? String(m.minutes).replace('.', ',') : '',
        source: m?.source ?? 'mtm',
        note: m?.note ?? '',
      };
    });
}
