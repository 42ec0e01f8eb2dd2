/**
 * Norms of labour (METHODOLOGY §7), pure maths over figures the reports already computed: t_reg of
 * the time study and the normative shift balance of the work-day photography. Nothing here reads
 * segments; the API (api/src/norms/) builds the inputs from the report engine's results.
 *
 * Units: minutes; percentages are 0–100. A ratio without a base (Нвыр with Топ = 0) is null.
 */

/** One operation of a unit of output: its t_reg in minutes and how many times one unit needs it. */
export interface UnitOperation {
  tRegMinutes: number;
  timesPerUnit: number;
}

/** The windows' normative shift balance per shift-day (§2's normative balance), minutes. */
export interface ShiftBalance {
  /** Тсм: shift time of one shift-day. */
  shiftMinutes: number;
  pzMinutes: number;
  serviceMinutes: number;
  moveMinutes: number;
  /** B_reg: regulated breaks of one shift-day (Тотл.н). */
  regulatedBreakMinutes: number;
}

/** Allowances as percent of Топ.н: preparation, service of the workplace, rest. */
export interface Allowances {
  pz: number;
  service: number;
  rest: number;
}

export interface NormInput {
  operations: UnitOperation[];
  balance: ShiftBalance;
  /** Allowances the organisation sets; when given they replace the actual ones. */
  normativeAllowances?: Allowances | null;
  /** A batch of `size` units with `prepMinutes` of preparation for the batch (Тпз.партии). */
  batch?: { size: number; prepMinutes: number } | null;
  /** A production plan: units over `shifts` shifts, planned fulfilment K_вн (1 = 100 %). */
  plan?: { units: number; shifts: number; fulfilment: number } | null;
}

export interface NormFigures {
  /** Топ, minutes per unit. */
  operative: number;
  shiftMinutes: number;
  /** The shift balance in force: Тпз.н, Тобс.н, Тотл.н, Топ.н (minutes per shift). */
  pz: number;
  service: number;
  rest: number;
  operativeShift: number;
  /** Allowances from the photography, percent of Топ.н. */
  actualAllowances: Allowances;
  /** The allowances the figures use, and which they are. */
  allowances: Allowances;
  allowanceSource: 'actual' | 'normative';
  /** Тшт. */
  piece: number;
  /** Нвыр exact, and as the card shows it (whole units, rounded down). */
  output: number | null;
  outputWhole: number | null;
  /** Нвр without a batch: Тшт + Тпз.н / Нвыр. */
  timePerUnit: number | null;
  /** Тшт-к for the batch, when one is set. */
  pieceBatch: number | null;
  /** The norm of time in force: Тшт-к with a batch, else Тшт + Тпз.н / Нвыр. */
  normTime: number | null;
  /** Нч for the plan, exact and rounded up; null without a plan. */
  headcountExact: number | null;
  headcount: number | null;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Топ = Σ t_reg × times per unit (default composition: every main operation once). */
export function operativeTime(operations: UnitOperation[]): number {
  return sum(operations.map((o) => o.tRegMinutes * o.timesPerUnit));
}

/** Тпз.н = pz, Тобс.н = service + move, Тотл.н = B_reg, Топ.н = Тсм − the three (never below 0). */
export function normativeShift(balance: ShiftBalance) {
  const pz = balance.pzMinutes;
  const service = balance.serviceMinutes + balance.moveMinutes;
  const rest = balance.regulatedBreakMinutes;
  return { pz, service, rest, operativeShift: Math.max(0, balance.shiftMinutes - pz - service - rest) };
}

/** Allowances as percent of Топ.н (0 when Топ.н is 0). */
export function allowancesOf(shift: { pz: number; service: number; rest: number; operativeShift: number }): Allowances {
  const percent = (x: number) => (shift.operativeShift > 0 ? (x / shift.operativeShift) * 100 : 0);
  return { pz: percent(shift.pz), service: percent(shift.service), rest: percent(shift.rest) };
}

/** The shift split by given allowances: Топ.н = Тсм / (1 + Σa / 100), each part a × Топ.н / 100. */
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

/** Rounds up, forgiving the last binary digits (4.000000000001 people are 4). */
const ceilSafe = (x: number) => Math.ceil(x - 1e-9);
const floorSafe = (x: number) => Math.floor(x + 1e-9);

/** Every figure of the norm card (METHODOLOGY §7) from the unit's operations and the shift balance. */
export function normFigures(input: NormInput): NormFigures {
  const operative = operativeTime(input.operations);
  const shiftMinutes = input.balance.shiftMinutes;
  const actual = normativeShift(input.balance);
  const actualAllowances = allowancesOf(actual);
  const normative = input.normativeAllowances ?? null;
  const shift = normative ? shiftFromAllowances(shiftMinutes, normative) : actual;
  const allowances = normative ?? actualAllowances;
  const piece = pieceTime(operative, allowances);
  const output = operative > 0 ? shift.operativeShift / operative : null;
  const timePerUnit = output !== null && output > 0 ? piece + shift.pz / output : null;
  const batch = input.batch && input.batch.size > 0 ? input.batch : null;
  const pieceBatch = batch ? piece + batch.prepMinutes / batch.size : null;
  const normTime = pieceBatch ?? timePerUnit;
  const exact = input.plan && normTime !== null ? headcountExact(input.plan, normTime, shiftMinutes) : null;
  return {
    operative,
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
  category: 'main' | 'aux' | 'loss';
  /** Work content per unit, minutes. */
  minutes: number;
}

export interface LineStation {
  id: number;
  name: string;
  operations: LineOperation[];
}

export interface LineBalance {
  stations: { id: number; name: string; minutes: number; byCategory: Record<LineOperation['category'], number> }[];
  /** Σt over every station. */
  totalMinutes: number;
  /** C = max Σt of a station. */
  cycleMinutes: number;
  taktMinutes: number | null;
  /** Σt / (N · C), 0–1; null without stations or work. */
  efficiency: number | null;
  balanceDelay: number | null;
  /** ⌈Σt / takt⌉; null without a takt. */
  minimumStations: number | null;
}

/** Takt = available time / demand (null without demand). */
export const taktOf = (availableMinutes: number, demand: number) => (demand > 0 ? availableMinutes / demand : null);

export function lineBalance(stations: LineStation[], taktMinutes: number | null): LineBalance {
  const rows = stations.map((s) => {
    const byCategory = { main: 0, aux: 0, loss: 0 };
    for (const op of s.operations) byCategory[op.category] += op.minutes;
    return { id: s.id, name: s.name, minutes: sum(s.operations.map((o) => o.minutes)), byCategory };
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
    minimumStations: taktMinutes !== null && taktMinutes > 0 ? ceilSafe(totalMinutes / taktMinutes) : null,
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
