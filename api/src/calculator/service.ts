import type { StabilityTable } from '@norma/core-wasm';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import { badRequest, forbidden, unauthorized } from '../http/errors';
import { ownerOrganizationId } from '../auth/access.service';
import { referenceTable, stabilityTableFor } from '../report/reference';
import {
  DEFAULTS,
  GEAR,
  GEAR_ITEMS,
  GEAR_OWNED_SPEC,
  GEAR_PRICE_SPEC,
  LICENSE,
  defaultValues,
  gearValues,
  licenseValues,
  type DefaultName,
  type GearItem,
  type LicenseName,
  type SettingSpec,
  type Settings,
  calculate,
  gearTable,
  measurementGraph,
  requiredMeasurementsFor,
  type CalculatorInput,
} from './formulas';

export interface CalculatorAccess {
  /** A member of the owner organisation: private outputs, gear table, settings. */
  canViewPrivate: boolean;
  /** An administrator of the owner organisation: edits the settings. */
  canEdit: boolean;
}

export async function calculatorAccess(db: Db, user: SessionUser | null): Promise<CalculatorAccess> {
  if (!user) return { canViewPrivate: false, canEdit: false };
  const owner = await ownerOrganizationId(db);
  const member = owner !== null && user.organizationId === owner;
  return { canViewPrivate: member, canEdit: member && user.role === 'admin' };
}

/** 401 without sign-in, 403 outside the owner organisation. */
export async function requirePrivate(db: Db, user: SessionUser | null): Promise<void> {
  if (!user) throw unauthorized();
  if (!(await calculatorAccess(db, user)).canViewPrivate) throw forbidden('Служебные данные калькулятора доступны только сотрудникам организации-владельца');
}

/**
 * The reference table (METHODOLOGY §4) the calculator's required measurements use: the signed-in
 * user's organisation's, as its reports use; for a visitor, the owner organisation's.
 */
export async function calculatorStabilityTable(db: Db, user: SessionUser | null): Promise<StabilityTable> {
  const organizationId = user?.organizationId ?? (await ownerOrganizationId(db));
  // No organisation yet: referenceTable of a non-existent id gives the product defaults.
  const table = await referenceTable(db, organizationId ?? 0);
  return stabilityTableFor(table, 'series', 'manual');
}

interface Stamp {
  updated_at: number | null;
  updated_by: string | null;
}

/** Stored settings over the defaults, and who changed each stored one. */
export async function loadSettings(db: Db): Promise<Settings & { stamps: Map<string, Stamp> }> {
  const [defaultRows, gearRows, licenseRows] = await Promise.all([
    db.selectFrom('calculator_defaults').selectAll().execute(),
    db.selectFrom('calculator_gear').selectAll().execute(),
    db.selectFrom('calculator_license').selectAll().execute(),
  ]);
  const defaults = defaultValues();
  const gear = gearValues();
  const license = licenseValues();
  const stamps = new Map<string, Stamp>();
  for (const row of defaultRows)
    if (row.name in DEFAULTS) {
      defaults[row.name as DefaultName] = row.value;
      stamps.set(row.name, row);
    }
  for (const row of licenseRows)
    if (row.name in LICENSE) {
      license[row.name as LicenseName] = row.value;
      stamps.set(row.name, row);
    }
  for (const row of gearRows)
    if (row.name in GEAR) {
      gear[row.name as GearItem] = { owned: row.owned, price: row.price };
      stamps.set(row.name, row);
    }
  return { defaults, gear, license, stamps };
}

async function names(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('user').select(['id', 'firstName', 'lastName']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, `${r.lastName ?? ''} ${r.firstName ?? ''}`.trim()]));
}

const stampFields = (stamp: Stamp | undefined, who: Map<string, string>) => ({
  updated_at: stamp?.updated_at ? new Date(stamp.updated_at).toISOString() : null,
  updated_by: stamp?.updated_by ? (who.get(stamp.updated_by) ?? null) : null,
});

const settingRow = (name: string, spec: SettingSpec, value: number, stamp: Stamp | undefined, who: Map<string, string>) => ({
  name,
  label: spec.label,
  unit: spec.unit,
  value,
  default_value: spec.value,
  min: spec.min,
  max: spec.max,
  integer: spec.integer ?? false,
  ...stampFields(stamp, who),
});

/** The settings as the administrator panels show them. */
export async function settingsView(db: Db) {
  const s = await loadSettings(db);
  const who = await names(db, [...new Set([...s.stamps.values()].map((x) => x.updated_by).filter((x): x is string => !!x))]);
  return {
    defaults: (Object.keys(DEFAULTS) as DefaultName[]).map((name) => settingRow(name, DEFAULTS[name], s.defaults[name], s.stamps.get(name), who)),
    license: (Object.keys(LICENSE) as LicenseName[]).map((name) => settingRow(name, LICENSE[name], s.license[name], s.stamps.get(name), who)),
    gear: GEAR_ITEMS.map((item) => ({
      item,
      label: GEAR[item].label,
      owned: s.gear[item].owned,
      price: s.gear[item].price,
      default_price: GEAR[item].price,
      owned_name: `owned_${item}`,
      price_name: `${item}_price`,
      ...stampFields(s.stamps.get(item), who),
    })),
  };
}

type Target =
  | { kind: 'default'; name: DefaultName; spec: SettingSpec }
  | { kind: 'license'; name: LicenseName; spec: SettingSpec }
  | { kind: 'gear'; item: GearItem; column: 'owned' | 'price'; spec: SettingSpec };

/** What an update name refers to: a default, a license setting, `owned_<item>` or `<item>_price`. */
function target(name: string): Target | null {
  if (Object.hasOwn(DEFAULTS, name)) return { kind: 'default', name: name as DefaultName, spec: DEFAULTS[name as DefaultName] };
  if (Object.hasOwn(LICENSE, name)) return { kind: 'license', name: name as LicenseName, spec: LICENSE[name as LicenseName] };
  const owned = /^owned_(.+)$/.exec(name)?.[1];
  if (owned && Object.hasOwn(GEAR, owned)) return { kind: 'gear', item: owned as GearItem, column: 'owned', spec: GEAR_OWNED_SPEC };
  const price = /^(.+)_price$/.exec(name)?.[1];
  if (price && Object.hasOwn(GEAR, price)) return { kind: 'gear', item: price as GearItem, column: 'price', spec: GEAR_PRICE_SPEC };
  return null;
}

function checkValue(name: string, value: number, spec: SettingSpec): string | null {
  if (!Number.isFinite(value)) return `${name}: ожидается число`;
  if (spec.integer && !Number.isInteger(value)) return `${name}: ожидается целое число`;
  if (spec.minExclusive ? value <= spec.min : value < spec.min)
    return `${name}: значение должно быть ${spec.minExclusive ? 'больше' : 'не меньше'} ${spec.min}`;
  if (value > spec.max) return `${name}: значение должно быть не больше ${spec.max}`;
  return null;
}

/**
 * Applies the changed values, all or none: every name and value is checked first (400 naming
 * each bad one), then everything is written in one transaction.
 */
export async function updateSettings(db: Db, userId: string, changes: { name: string; new_value: number }[]): Promise<void> {
  if (changes.length === 0) throw badRequest('Нет изменённых значений');
  const problems: string[] = [];
  const seen = new Set<string>();
  const targets: { t: Target; value: number }[] = [];
  for (const change of changes) {
    if (seen.has(change.name)) {
      problems.push(`${change.name}: значение передано дважды`);
      continue;
    }
    seen.add(change.name);
    const t = target(change.name);
    if (!t) {
      problems.push(`${change.name}: нет такой настройки калькулятора`);
      continue;
    }
    const problem = checkValue(change.name, change.new_value, t.spec);
    if (problem) problems.push(problem);
    else targets.push({ t, value: change.new_value });
  }
  if (problems.length > 0) throw badRequest(`Настройки не сохранены — ${problems.join('; ')}`);
  const now = Date.now();
  const current = gearValues();
  await db.transaction().execute(async (trx) => {
    for (const { t, value } of targets) {
      const stamp = { updated_at: now, updated_by: userId };
      if (t.kind === 'default' || t.kind === 'license') {
        const table = t.kind === 'default' ? 'calculator_defaults' : 'calculator_license';
        await trx
          .insertInto(table)
          .values({ name: t.name, value, ...stamp })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value, ...stamp }))
          .execute();
      } else {
        const base = current[t.item];
        await trx
          .insertInto('calculator_gear')
          .values({ name: t.item, owned: base.owned, price: base.price, [t.column]: value, ...stamp })
          .onConflict((oc) => oc.column('name').doUpdateSet({ [t.column]: value, ...stamp }))
          .execute();
      }
    }
  });
}

/** The figures for one request's inputs: the settings and the caller's reference table applied to them. */
export async function computeFor(db: Db, user: SessionUser | null, input: CalculatorInput) {
  const [settings, table] = await Promise.all([loadSettings(db), calculatorStabilityTable(db, user)]);
  return calculate(input, settings, table);
}

/** The normative stability and the number of measurements for a production type (the caller's reference table). */
export async function requiredMeasurements(db: Db, user: SessionUser | null, input: Pick<CalculatorInput, 'production_type' | 'less_10_sec'>) {
  return requiredMeasurementsFor(await calculatorStabilityTable(db, user), input.production_type, input.less_10_sec);
}

/** How many measurements each stability needs for the production type's accuracy (the caller's reference table). */
export async function measurementGraphFor(db: Db, user: SessionUser | null, input: Pick<CalculatorInput, 'production_type' | 'less_10_sec'>) {
  return measurementGraph(await calculatorStabilityTable(db, user), input.production_type, input.less_10_sec);
}

/** The project's gear (needed, owned, to buy, cost): members of the owner organisation only. */
export async function privateGearTable(db: Db, user: SessionUser | null, input: CalculatorInput) {
  await requirePrivate(db, user);
  return gearTable(input, await loadSettings(db));
}

/** Gear in stock and prices with the caller's rights; without the right to see them, no gear. */
export async function gearDefaults(db: Db, user: SessionUser | null) {
  const access = await calculatorAccess(db, user);
  const gear = access.canViewPrivate ? (await settingsView(db)).gear : [];
  return { can_edit: access.canEdit, can_view_private: access.canViewPrivate, gear };
}

/** The settings view and the right to edit them: members of the owner organisation only. */
export async function privateSettings(db: Db, user: SessionUser | null) {
  await requirePrivate(db, user);
  const access = await calculatorAccess(db, user);
  return { view: await settingsView(db), canEdit: access.canEdit };
}

/** Applies the admin's changes and answers with the whole settings view. */
export async function updateAndView(db: Db, userId: string, changes: { name: string; new_value: number }[]) {
  await updateSettings(db, userId, changes);
  return { can_edit: true, can_view_private: true, ...(await settingsView(db)) };
}
