import { diffFigures } from '@norma/core-wasm/norms';
import { toIso } from '@norma/core-wasm/report';
import type { z } from '@hono/zod-openapi';
import type { LocatedStructure, StructureLocator } from '../auth/access';
import { memberRole } from '../auth/service';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import type { NormCardsTable } from '../db/schema';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors';
import { parseId } from '../http/openapi';
import { localDate } from '../time-zone';
import {
  computeCard,
  resolveWindows,
  UNSTABLE_TEXT,
  windowRows,
  type NormComputedValue,
  type NormParamsValue,
  type NormThreadTask,
  type NormWindowValue,
} from './build';
import { NormParams, type LineScenarioBody, type NormApproveBody, type NormCreateBody, type NormUpdateBody } from './schema';

/**
 * Norm card versions (docs/norms.md): drafts are recomputed from their windows whenever they
 * change, and every change adds one to the draft's revision; an approved version is frozen — every
 * write to it is a 409, and the approval itself only touches a row that is still a draft at the
 * revision its approver read.
 */

type CardRow = Omit<NormCardsTable, 'id'> & { id: number };

export const APPROVED_IS_FROZEN = 'Утверждённая версия нормы не изменяется: создайте новый черновик';
export const ALREADY_APPROVED = 'Эта версия нормы уже утверждена';
/** 409 of an approval whose approver read an earlier revision of the draft (issue 39). */
export const DRAFT_CHANGED =
  'Черновик нормы изменили после того, как вы его открыли: ничего не утверждено. Прочтите карточку в её нынешнем виде и утвердите снова.';
/**
 * The codes of an approval's 409s (docs/norms.md), so a client tells a draft changed since it was
 * read (its `details.card` is to be read again) from a card that cannot be approved as it is.
 */
export const APPROVE_CODES = {
  draftChanged: 'norm_draft_changed',
  alreadyApproved: 'norm_already_approved',
  notCalculated: 'norm_not_calculated',
  unstable: 'norm_unstable_series',
} as const;
const refused = (code: string, message: string, details?: unknown) => new ApiError(409, code, message, details);

/** `/api/v1/norms/{id}`: the card's structure and organisation, for the one access check. */
export const structureOfCard: StructureLocator = async (c, db): Promise<LocatedStructure> => {
  const id = parseId(c.req.param('id'));
  if (id === null) throw badRequest('id: ожидается целое положительное число десятичными цифрами');
  const row = await db
    .selectFrom('norm_cards')
    .innerJoin('structures', 'structures.id', 'norm_cards.structure_id')
    .select(['norm_cards.structure_id', 'structures.organization_id'])
    .where('norm_cards.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Карточка нормы не найдена');
  return { structureId: row.structure_id, organizationId: row.organization_id };
};

/** Admins approve norms; an analyst only when an admin of his current organisation gave him the right (norm_approvers). */
export async function canApprove(db: Db, user: SessionUser): Promise<boolean> {
  if (user.role === 'admin') return true;
  if (user.role !== 'analyst') return false;
  return Boolean(
    await db
      .selectFrom('norm_approvers')
      .select('user_id')
      .where('organization_id', '=', user.organizationId)
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
  );
}

export const canEdit = (user: SessionUser) => user.role === 'admin' || user.role === 'analyst';

const defaultParams = (): NormParamsValue => NormParams.parse({});

async function employeeNames(db: Db, structureId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

const windowsOf = (row: CardRow): NormWindowValue[] =>
  (JSON.parse(row.windows) as { employee_id: number; from_time: string; to_time: string; date?: string | null }[]).map((w) => ({
    employee_id: w.employee_id,
    from_time: Date.parse(w.from_time),
    to_time: Date.parse(w.to_time),
    date: w.date ?? null,
  }));

/** The version in force today: the approved one with the latest start not after today (then the highest version). */
function inForceId(rows: CardRow[], today: string): number | null {
  const approved = rows.filter((r) => r.approved_at !== null && r.effective_from !== null && r.effective_from <= today);
  approved.sort((a, b) => (a.effective_from! < b.effective_from! ? 1 : a.effective_from! > b.effective_from! ? -1 : b.version - a.version));
  return approved[0]?.id ?? null;
}

function summaryOf(row: CardRow, inForce: number | null) {
  return {
    id: row.id,
    structure_id: row.structure_id,
    version: row.version,
    title: row.title,
    status: row.approved_at === null ? ('draft' as const) : ('approved' as const),
    in_force: row.id === inForce,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    approved_at: row.approved_at === null ? null : toIso(row.approved_at),
    approved_by_name: row.approved_by_name,
    effective_from: row.effective_from,
    revision: row.revision,
    approval_comment: row.approval_comment ?? null,
  };
}

async function structureRows(db: Db, structureId: number) {
  const [structure, rows] = await Promise.all([
    db
      .selectFrom('structures')
      .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
      .select(['structures.id', 'structures.name', 'organizations.time_zone'])
      .where('structures.id', '=', structureId)
      .executeTakeFirstOrThrow(),
    db.selectFrom('norm_cards').selectAll().where('structure_id', '=', structureId).orderBy('version', 'desc').execute(),
  ]);
  return { structure, rows, inForce: inForceId(rows, localDate(Date.now(), structure.time_zone)) };
}

export async function listVersions(db: Db, user: SessionUser, structureId: number) {
  const { structure, rows, inForce } = await structureRows(db, structureId);
  return {
    structure: { id: structure.id, name: structure.name },
    versions: rows.map((r) => summaryOf(r, inForce)),
    can_edit: canEdit(user),
    can_approve: await canApprove(db, user),
  };
}

async function cardRow(db: Db, id: number): Promise<CardRow> {
  const row = await db.selectFrom('norm_cards').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Карточка нормы не найдена');
  return row;
}

export async function readCard(db: Db, user: SessionUser, id: number) {
  const row = await cardRow(db, id);
  const { rows, inForce } = await structureRows(db, row.structure_id);
  const current = rows.find((r) => r.id === id) ?? row;
  return {
    ...summaryOf(current, inForce),
    windows: JSON.parse(current.windows) as ReturnType<typeof windowRows>,
    params: JSON.parse(current.params) as NormParamsValue,
    card: JSON.parse(current.card) as NormComputedValue,
    can_edit: canEdit(user) && current.approved_at === null,
    can_approve: current.approved_at === null && (await canApprove(db, user)),
  };
}

/** The report threads as the norms use them (threads/report-threads.ts; AppDeps.reportThreads). */
interface NormThreads {
  run(task: NormThreadTask): Promise<string>;
}

/**
 * The card's figures: on a report thread when the server has them (main.ts), since a card balances
 * every shift-day of up to 62 windows and must not hold the thread that answers other calls.
 */
async function cardOf(db: Db, threads: NormThreads | undefined, structureId: number, windows: NormWindowValue[], params: NormParamsValue) {
  if (!threads) return computeCard(db, structureId, windows, params);
  return JSON.parse(await threads.run({ task: 'normCard', structureId, windows, params })) as NormComputedValue;
}

export async function createDraft(db: Db, user: SessionUser, structureId: number, body: z.output<typeof NormCreateBody>, threads?: NormThreads) {
  const params = body.params ?? defaultParams();
  const windows = await resolveWindows(db, structureId, body.windows);
  const card = await cardOf(db, threads, structureId, windows, params);
  const names = await employeeNames(db, structureId);
  const now = Date.now();
  // The next version number; the unique (structure, version) turns a concurrent twin into an error, not a duplicate.
  const last = await db
    .selectFrom('norm_cards')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('structure_id', '=', structureId)
    .executeTakeFirst();
  const version = Number(last?.v ?? 0) + 1;
  const { id } = await db
    .insertInto('norm_cards')
    .values({
      structure_id: structureId,
      version,
      title: body.title ?? `Норма, версия ${version}`,
      windows: JSON.stringify(windowRows(windows, names)),
      params: JSON.stringify(params),
      card: JSON.stringify(card),
      created_at: now,
      created_by: user.id,
      updated_at: now,
      approved_at: null,
      approved_by: null,
      approved_by_name: null,
      effective_from: null,
      revision: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return readCard(db, user, id);
}

export async function updateDraft(db: Db, user: SessionUser, id: number, body: z.output<typeof NormUpdateBody>, threads?: NormThreads) {
  const row = await cardRow(db, id);
  if (row.approved_at !== null) throw conflict(APPROVED_IS_FROZEN);
  const windows = body.windows ? await resolveWindows(db, row.structure_id, body.windows) : windowsOf(row);
  const params = body.params ?? (JSON.parse(row.params) as NormParamsValue);
  const card = await cardOf(db, threads, row.structure_id, windows, params);
  const names = await employeeNames(db, row.structure_id);
  const result = await db
    .updateTable('norm_cards')
    .set({
      title: body.title ?? row.title,
      windows: JSON.stringify(windowRows(windows, names)),
      params: JSON.stringify(params),
      card: JSON.stringify(card),
      updated_at: Date.now(),
      revision: (eb) => eb('revision', '+', 1),
    })
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .executeTakeFirst();
  // Approved between the read and this write: the approval wins, the edit is refused.
  if (Number(result.numUpdatedRows) === 0) throw conflict(APPROVED_IS_FROZEN);
  return readCard(db, user, id);
}

/**
 * Approves a draft at the revision its approver read (`body.revision`). A draft changed since then
 * is refused with 409 and the card as it is now (`details.card`), so the approver reads what he
 * would approve. The check is in the one `UPDATE … WHERE approved_at IS NULL AND revision = ?`:
 * an edit that lands between the read and the write cannot slip in, and the approval is one
 * statement — all or nothing.
 */
export async function approveDraft(db: Db, user: SessionUser, id: number, body: z.output<typeof NormApproveBody>) {
  if (!(await canApprove(db, user))) throw forbidden('Утверждать нормы может администратор или аналитик, которому администратор дал это право');
  const row = await cardRow(db, id);
  if (row.approved_at !== null) throw refused(APPROVE_CODES.alreadyApproved, ALREADY_APPROVED, { card: await readCard(db, user, id) });
  if (row.revision !== body.revision) throw refused(APPROVE_CODES.draftChanged, DRAFT_CHANGED, { card: await readCard(db, user, id) });
  const card = JSON.parse(row.card) as NormComputedValue;
  // METHODOLOGY §7: a card that hides an operation of the unit is not a norm; an unstable series needs the approver's word.
  if (card.not_calculated) throw refused(APPROVE_CODES.notCalculated, `Нельзя утвердить: ${card.not_calculated}`);
  if (!card.figures.some((f) => f.key === 'norm_time' && f.value !== null))
    throw badRequest('Нельзя утвердить норму без нормы времени: в окнах нет замеров операций единицы');
  const unstable = card.unstable ?? [];
  if (unstable.length > 0 && body.override_comment === undefined)
    throw refused(
      APPROVE_CODES.unstable,
      `${unstable.map((name) => `«${name}»`).join(', ')}: ${UNSTABLE_TEXT}. Утвердить можно только с явным подтверждением и комментарием (override_comment).`,
    );
  const result = await db
    .updateTable('norm_cards')
    .set({
      approved_at: Date.now(),
      approved_by: user.id,
      approved_by_name: `${user.lastName} ${user.firstName}`.trim(),
      effective_from: body.effective_from,
      approval_comment: unstable.length > 0 ? body.override_comment! : null,
    })
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .where('revision', '=', body.revision)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    // Approved or changed between the read above and this write: say which, with the card as it is now.
    const now = await readCard(db, user, id);
    if (now.status === 'approved') throw refused(APPROVE_CODES.alreadyApproved, ALREADY_APPROVED, { card: now });
    throw refused(APPROVE_CODES.draftChanged, DRAFT_CHANGED, { card: now });
  }
  return readCard(db, user, id);
}

/** Figure-by-figure differences of a version from another one (default: the version in force, else the previous). */
export async function diffVersions(db: Db, user: SessionUser, id: number, againstId: number | undefined) {
  const row = await cardRow(db, id);
  const { rows, inForce } = await structureRows(db, row.structure_id);
  let other: CardRow | undefined;
  if (againstId !== undefined) {
    other = rows.find((r) => r.id === againstId);
    if (!other) throw notFound('Версия для сравнения не найдена у этой структурной единицы');
  } else {
    other = rows.find((r) => r.id === inForce && r.id !== id) ?? rows.find((r) => r.version < row.version);
  }
  const after = JSON.parse(row.card) as NormComputedValue;
  const before = other ? (JSON.parse(other.card) as NormComputedValue) : null;
  const values = (card: NormComputedValue | null) => Object.fromEntries((card?.figures ?? []).map((f) => [f.key, f.value]));
  const labels = new Map([...(before?.figures ?? []), ...after.figures].map((f) => [f.key, f]));
  return {
    before: other ? summaryOf(other, inForce) : null,
    after: summaryOf(row, inForce),
    rows: diffFigures(values(before), values(after)).map((d) => ({
      key: d.key,
      label: labels.get(d.key)?.label ?? d.key,
      unit: labels.get(d.key)?.unit ?? '',
      before: d.before,
      after: d.after,
      delta: d.delta,
      delta_percent: d.deltaPercent,
    })),
  };
}

// ---------------------------------------------------------------- approvers

export async function listApprovers(db: Db, organizationId: number) {
  const rows = await db
    .selectFrom('norm_approvers')
    .innerJoin('memberships', (join) =>
      join.onRef('memberships.user_id', '=', 'norm_approvers.user_id').onRef('memberships.organization_id', '=', 'norm_approvers.organization_id'),
    )
    .innerJoin('user', 'user.id', 'norm_approvers.user_id')
    .select(['norm_approvers.user_id', 'norm_approvers.granted_at', 'memberships.role', 'user.firstName', 'user.lastName'])
    .where('norm_approvers.organization_id', '=', organizationId)
    .orderBy('user.lastName')
    .execute();
  return { approvers: rows.map((r) => ({ user_id: r.user_id, name: `${r.lastName} ${r.firstName}`.trim(), role: r.role, granted_at: toIso(r.granted_at) })) };
}

/** Gives an analyst of the admin's organisation the right to approve norms (admins have it anyway). */
export async function grantApprover(db: Db, admin: SessionUser, userId: string) {
  const role = await memberRole(db, admin.organizationId, userId);
  if (!role) throw notFound('Пользователь не найден в организации');
  if (role !== 'analyst') throw badRequest('Право утверждать нормы даётся аналитику; администратор утверждает и без него');
  await db
    .insertInto('norm_approvers')
    .values({ organization_id: admin.organizationId, user_id: userId, granted_by: admin.id, granted_at: Date.now() })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .execute();
  return listApprovers(db, admin.organizationId);
}

export async function revokeApprover(db: Db, admin: SessionUser, userId: string) {
  if (!(await memberRole(db, admin.organizationId, userId))) throw notFound('Пользователь не найден в организации');
  await db.deleteFrom('norm_approvers').where('organization_id', '=', admin.organizationId).where('user_id', '=', userId).execute();
  return listApprovers(db, admin.organizationId);
}

// ---------------------------------------------------------------- line balance scenarios

type Placement = { operation_id: number; workplace_id: number };
/**
 * A scenario as stored in `norm_line_scenarios.assignment` (JSON): the line's stations in order and
 * where each operation is. Scenarios saved before stations were kept hold the bare array of
 * placements; their stations are the workplaces they use, in the card's order.
 */
type StoredLine = { stations: number[]; assignment: Placement[] };

function storedLine(text: string, card: NormComputedValue | null): StoredLine {
  const value = JSON.parse(text) as StoredLine | Placement[];
  if (!Array.isArray(value)) return value;
  const used = new Set(value.map((a) => a.workplace_id));
  const order = card ? card.line.workplaces.map((w) => w.id) : [...used];
  return { stations: order.filter((id) => used.has(id)), assignment: value };
}

export async function listScenarios(db: Db, cardId: number) {
  const rows = await db.selectFrom('norm_line_scenarios').selectAll().where('card_id', '=', cardId).orderBy('id').execute();
  const legacy = rows.some((r) => Array.isArray(JSON.parse(r.assignment)));
  const card = legacy ? (JSON.parse((await cardRow(db, cardId)).card) as NormComputedValue) : null;
  return {
    scenarios: rows.map((r) => ({
      id: r.id,
      name: r.name,
      demand: r.demand,
      ...storedLine(r.assignment, card),
      created_at: toIso(r.created_at),
    })),
  };
}

/**
 * Checks a scenario against the card's line (METHODOLOGY §7, «Line balance»): the stations are the
 * card's workplaces, each once; each operation is work of the unit (a loss never occupies a
 * station), placed once, on one of the stations. Returns the line to store.
 */
function checkedLine(card: NormComputedValue, body: z.output<typeof LineScenarioBody>): StoredLine {
  const workplaces = new Map(card.line.workplaces.map((w) => [w.id, w.name]));
  const operations = new Map(card.line.operations.map((o) => [o.operation_id, o]));
  const stations = body.stations ?? card.line.workplaces.map((w) => w.id).filter((id) => body.assignment.some((a) => a.workplace_id === id));
  const seen = new Set<number>();
  for (const id of stations) {
    if (!workplaces.has(id)) throw badRequest(`stations: рабочего места ${id} нет у структурной единицы этой карточки`);
    if (seen.has(id)) throw badRequest(`stations: рабочее место «${workplaces.get(id)}» стоит на линии дважды`);
    seen.add(id);
  }
  const placed = new Set<number>();
  for (const a of body.assignment) {
    const op = operations.get(a.operation_id);
    if (!op) throw badRequest(`assignment: операции ${a.operation_id} нет среди операций единицы этой карточки`);
    if (op.category === 'loss') throw badRequest(`assignment: «${op.name}» — потери, а не работа: станцию не занимает`);
    if (placed.has(a.operation_id)) throw badRequest(`assignment: операция «${op.name}» назначена дважды`);
    if (!seen.has(a.workplace_id))
      throw badRequest(`assignment: операция «${op.name}» назначена на рабочее место ${a.workplace_id}, которого нет среди станций линии`);
    placed.add(a.operation_id);
  }
  return { stations, assignment: body.assignment };
}

/** Saves a scenario of the card's line: its stations in order and the operations on them. Bad input changes nothing (400). */
export async function saveScenario(db: Db, user: SessionUser, cardId: number, body: z.output<typeof LineScenarioBody>) {
  const card = JSON.parse((await cardRow(db, cardId)).card) as NormComputedValue;
  const line = checkedLine(card, body);
  await db
    .insertInto('norm_line_scenarios')
    .values({ card_id: cardId, name: body.name, demand: body.demand, assignment: JSON.stringify(line), created_at: Date.now(), created_by: user.id })
    .execute();
  return listScenarios(db, cardId);
}

/** The structure's approved norm cards (fulfilment.ts picks the one in force each day). */
export async function approvedNormRows(db: Db, structureId: number) {
  return db
    .selectFrom('norm_cards')
    .select(['id', 'version', 'effective_from', 'card'])
    .where('structure_id', '=', structureId)
    .where('approved_at', 'is not', null)
    .execute();
}
