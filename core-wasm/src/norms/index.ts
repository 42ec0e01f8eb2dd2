/**
 * Norms of labour (METHODOLOGY §7), pure maths over figures the reports already computed: t_reg of
 * the time study and the normative shift balance of the work-day photography. Nothing here reads
 * segments; the API (api/src/norms/) builds the inputs from the report engine's results.
 *
 * Units: minutes; percentages are 0–100. A ratio without a base (Нвыр with Топ = 0) is null.
 */

/**
 * One operation of a unit of output: its t_reg in minutes (null: no accepted measurement and no
 * time entered by hand — the card is not calculated), how many times one unit needs it, and the
 * rating (темп) of its observations, percent (100 = no rating).
 */
export interface UnitOperation {
  tRegMinutes: number | null;
  timesPerUnit: number;
  ratingPercent?: number;
}

/**
 * The basis's observed normative balance (METHODOLOGY §2: idle → 0, rest → the regulated rest),
 * minutes. Only its shares count, so totals over the basis and averages per shift-day give the same
 * figures, and so does a shift observed in part.
 */
export interface ObservedBalance {
  mainMinutes: number;
  auxMinutes: number;
  pzMinutes: number;
  serviceMinutes: number;
  moveMinutes: number;
  /** The regulated rest inside working time (not the meal break). */
  regulatedRestMinutes: number;
}

/** Allowances as percent of the operating time: preparation, service of the workplace (with moves), rest. */
export interface Allowances {
  pz: number;
  service: number;
  rest: number;
}

export interface NormInput {
  operations: UnitOperation[];
  /** Тсм: the chosen shift's nominal length, end − start − its meal break (nominalShiftMinutes). */
  shiftMinutes: number;
  balance: ObservedBalance;
  /** Allowances the organisation sets; when given they replace the observed ones. */
  normativeAllowances?: Allowances | null;
  /** A batch of `size` units with `prepMinutes` of preparation for the batch (Тпз.партии). */
  batch?: { size: number; prepMinutes: number } | null;
  /** A production plan: units over `shifts` shifts, planned fulfilment K_вн (1 = 100 %). */
  plan?: { units: number; shifts: number; fulfilment: number } | null;
}

export interface NormFigures {
  /** Топ, minutes per unit; null when an operation of the unit has no time. */
  operative: number | null;
  /** Топ_набл: main + aux minutes of the observed normative balance, the base of the observed allowances. */
  observedOperative: number;
  shiftMinutes: number;
  /** The shift in force: Тпз.н, Тобс.н, Тотл.н = Топ.н × a / 100, and Топ.н (minutes per shift). */
  pz: number;
  service: number;
  rest: number;
  operativeShift: number;
  /** Allowances from the observed normative balance, percent of Топ_набл. */
  actualAllowances: Allowances;
  /** The allowances the figures use, and which they are. */
  allowances: Allowances;
  allowanceSource: 'actual' | 'normative';
  /** Тшт. */
  piece: number | null;
  /** Нвыр exact, and as the card shows it (whole units, rounded down). */
  output: number | null;
  outputWhole: number | null;
  /** Нвр without a batch: Тсм / Нвыр (= Тшт + Тпз.н / Нвыр). */
  timePerUnit: number | null;
  /** Тшт-к for the batch, when one is set. */
  pieceBatch: number | null;
  /** The norm of time in force: Тшт-к with a batch, else Тсм / Нвыр; always Нвр × Нвыр = Тсм. */
  normTime: number | null;
  /** Нч for the plan, exact and rounded up; null without a plan. */
  headcountExact: number | null;
  headcount: number | null;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The lowest and highest rating (темп) a basis may be given, percent. */
export const RATING_MIN = 50;
export const RATING_MAX = 200;

/** t_norm = t_reg × rating / 100 (METHODOLOGY §7). */
export const ratedTime = (tRegMinutes: number, ratingPercent = 100) => (tRegMinutes * ratingPercent) / 100;

/** Топ = Σ t_norm × times per unit; null when an operation the unit needs has no time. */
export function operativeTime(operations: UnitOperation[]): number | null {
  const used = operations.filter((o) => o.timesPerUnit > 0);
  if (used.some((o) => o.tRegMinutes === null)) return null;
  return sum(used.map((o) => ratedTime(o.tRegMinutes!, o.ratingPercent) * o.timesPerUnit));
}

const DAY_MINUTES = 1440;
const clockMinutes = (time: string) => {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return h * 60 + m + s / 60;
};

/**
 * Тсм of a shift from its settings: end − start − the meal break, minutes. A night shift runs past
 * midnight; the clock, not a DST night's real hours, gives its length.
 */
export function nominalShiftMinutes(startTime: string, endTime: string, mealMinutes: number): number {
  const length = (clockMinutes(endTime) - clockMinutes(startTime) + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
  return Math.max(0, length - mealMinutes);
}

/** Observed allowances as percent of Топ_набл = main + aux of the normative balance (0 without it). */
export function allowancesOf(balance: ObservedBalance): Allowances {
  const base = balance.mainMinutes + balance.auxMinutes;
  const percent = (x: number) => (base > 0 ? (x / base) * 100 : 0);
  return { pz: percent(balance.pzMinutes), service: percent(balance.serviceMinutes + balance.moveMinutes), rest: percent(balance.regulatedRestMinutes) };
}

/** The shift split by allowances: Топ.н = Тсм / (1 + Σa / 100), each part a × Топ.н / 100. */
export function shiftFromAllowances(shiftMinutes: number, a: Allowances) {
  const operativeShift = shiftMinutes / (1 + (a.pz + a.service + a.rest) / 100);
  return { pz: (a.pz * operativeShift) / 100, service: (a.service * operativeShift) / 100, rest: (a.rest * operativeShift) / 100, operativeShift };
}

/** Тшт = Топ × (1 + (а_обс + а_отл) / 100). */
export const pieceTime = (operative: number, a: Allowances) => operative * (1 + (a.service + a.rest) / 100);

/** Нч = plan × Нвр / (shifts × Тсм × K_вн), exact. */
export function headcountExact(plan: { units: number; shifts: number; fulfilment: number }, normTime: number, shiftMinutes: number): number | null {
  const capacity = plan.shifts * shiftMinutes * plan.fulfilment;
  return capacity > 0 ? (plan.units * normTime) / capacity : null;
}

/**
 * A series is unstable (METHODOLOGY §7) when cleaning dropped more than 15 % of its measurements,
 * or more than 2 of a series shorter than 15.
 */
export function unstableSeries(measured: number, accepted: number): boolean {
  const dropped = measured - accepted;
  return measured < 15 ? dropped > 2 : dropped > 0.15 * measured;
}

/** Rounds up, forgiving the last binary digits (4.000000000001 people are 4). */
const ceilSafe = (x: number) => Math.ceil(x - 1e-9);
const floorSafe = (x: number) => Math.floor(x + 1e-9);

/** Every figure of the norm card (METHODOLOGY §7) from the unit's operations, Тсм and the observed balance. */
export function normFigures(input: NormInput): NormFigures {
  const operative = operativeTime(input.operations);
  const shiftMinutes = input.shiftMinutes;
  const actualAllowances = allowancesOf(input.balance);
  const normative = input.normativeAllowances ?? null;
  const allowances = normative ?? actualAllowances;
  const shift = shiftFromAllowances(shiftMinutes, allowances);
  const piece = operative === null ? null : pieceTime(operative, allowances);
  const batch = input.batch && input.batch.size > 0 ? input.batch : null;
  const pieceBatch = piece !== null && batch ? piece + batch.prepMinutes / batch.size : null;
  const byShift = operative !== null && operative > 0 ? shift.operativeShift / operative : null;
  const timePerUnit = byShift !== null && byShift > 0 ? shiftMinutes / byShift : null;
  // With a batch its prep replaces the shift's: Нвр = Тшт-к, Нвыр = Тсм / Нвр.
  const normTime = pieceBatch ?? timePerUnit;
  const output = pieceBatch !== null ? (pieceBatch > 0 ? shiftMinutes / pieceBatch : null) : byShift;
  const exact = input.plan && normTime !== null ? headcountExact(input.plan, normTime, shiftMinutes) : null;
  return {
    operative,
    observedOperative: input.balance.mainMinutes + input.balance.auxMinutes,
    shiftMinutes,
    pz: shift.pz,
    service: shift.service,
    rest: shift.rest,
    operativeShift: shift.operativeShift,
    actualAllowances,
    allowances,
    allowanceSource: normative ? 'normative' : 'actual',
    piece,
    output,
    outputWhole: output === null ? null : floorSafe(output),
    timePerUnit,
    pieceBatch,
    normTime,
    headcountExact: exact,
    headcount: exact === null ? null : ceilSafe(exact),
  };
}

/**
 * Норма выполнена, % = Нвр × units / (T_shift − idle) × 100 for a later window (per employee and
 * shift-day); null when no time is left to work in.
 */
export function fulfilmentPercent(normTime: number, units: number, shiftMinutes: number, idleMinutes: number): number | null {
  const base = shiftMinutes - idleMinutes;
  return base > 0 ? ((normTime * units) / base) * 100 : null;
}

// ---------------------------------------------------------------- line balance (Yamazumi)

export interface LineOperation {
  id: number;
  name: string;
  /** Losses (idle) may come with the operations; they are not work content and never count. */
  category: 'main' | 'aux' | 'loss';
  /** Work content per unit, minutes: t_norm × times per unit. */
  minutes: number;
}

/** A station of the line: a workplace the unit passes through, in the line's order. */
export interface LineStation {
  id: number;
  name: string;
  operations: LineOperation[];
}

export interface LineBalance {
  /** The stations in the line's order: Σt of each = its main + aux work content (losses left out). */
  stations: { id: number; name: string; minutes: number; byCategory: { main: number; aux: number } }[];
  /** Σt_all over every station. */
  totalMinutes: number;
  /** C = max Σt of a station. */
  cycleMinutes: number;
  taktMinutes: number | null;
  /** Σt_all / (N · C), 0–1; null without stations or work. */
  efficiency: number | null;
  /** 1 − efficiency. */
  balanceDelay: number | null;
  /** ⌈Σt_all / takt⌉; null without a takt. */
  minimumStations: number | null;
}

/** Takt = available time / demand (null without demand). */
export const taktOf = (availableMinutes: number, demand: number) => (demand > 0 ? availableMinutes / demand : null);

/** Work content of an operation on a line: losses (idle) are none (METHODOLOGY §7, «Line balance»). */
export const workContent = (op: LineOperation) => (op.category === 'loss' ? 0 : op.minutes);

/**
 * The balance of a line (METHODOLOGY §7): the analyst's stations in order, each with the operations
 * assigned to it. Σt of a station = Σ t_norm × times per unit of its operations, work content only;
 * C = max Σt; efficiency = Σt_all / (N · C); balance delay = 1 − efficiency; minimum stations =
 * ⌈Σt_all / takt⌉. Workplaces that each make the whole unit side by side are not a line: the
 * caller does not call this for them.
 */
export function lineBalance(stations: LineStation[], taktMinutes: number | null): LineBalance {
  const rows = stations.map((s) => {
    const byCategory = { main: 0, aux: 0 };
    for (const op of s.operations) if (op.category !== 'loss') byCategory[op.category] += op.minutes;
    return { id: s.id, name: s.name, minutes: sum(s.operations.map(workContent)), byCategory };
  });
  const totalMinutes = sum(rows.map((r) => r.minutes));
  const cycleMinutes = rows.reduce((m, r) => Math.max(m, r.minutes), 0);
  const efficiency = rows.length > 0 && cycleMinutes > 0 ? totalMinutes / (rows.length * cycleMinutes) : null;
  return {
    stations: rows,
    totalMinutes,
    cycleMinutes,
    taktMinutes,
    efficiency,
    balanceDelay: efficiency === null ? null : 1 - efficiency,
    minimumStations: taktMinutes !== null && taktMinutes > 0 ? Math.max(0, ceilSafe(totalMinutes / taktMinutes)) : null,
  };
}

/** The stations with one operation moved to another station (appended last); unchanged if either is unknown. */
export function moveOperation(stations: LineStation[], operationId: number, toStationId: number): LineStation[] {
  const op = stations.flatMap((s) => s.operations).find((o) => o.id === operationId);
  if (!op || !stations.some((s) => s.id === toStationId)) return stations;
  return stations.map((s) => {
    const rest = s.operations.filter((o) => o.id !== operationId);
    return { ...s, operations: s.id === toStationId ? [...rest, op] : rest };
  });
}

// ---------------------------------------------------------------- versions

export interface FigureDiff {
  key: string;
  before: number | null;
  after: number | null;
  /** after − before; null when either is missing. */
  delta: number | null;
  /** delta / before × 100; null when before is 0 or missing. */
  deltaPercent: number | null;
}

/** Figure-by-figure differences of two versions, in the order of `after`'s keys, then `before`'s. */
export function diffFigures(before: Record<string, number | null>, after: Record<string, number | null>): FigureDiff[] {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return keys.map((key) => {
    const b = before[key] ?? null;
    const a = after[key] ?? null;
    const delta = a !== null && b !== null ? a - b : null;
    return { key, before: b, after: a, delta, deltaPercent: delta !== null && b !== null && b !== 0 ? (delta / b) * 100 : null };
  });
}
