import { lineBalance, taktOf, type LineBalance, type LineStation } from '@norma/core-wasm/norms';
import { proxy } from 'valtio';
import { api } from '../../api/client';
import type { LineScenarios, NormCard } from '../../api/types';

type Line = NormCard['card']['line'];
type Scenario = LineScenarios['scenarios'][number];
/** A saved scenario as read (the screen's snapshot is read-only). */
type SavedLine = Pick<Scenario, 'name' | 'demand'> & { stations: readonly number[]; assignment: readonly Scenario['assignment'][number][] };
/** The analyst's line: its stations (workplace ids) in order, and operation id → station (absent: not placed yet). */
export interface LineLayout {
  stations: readonly number[];
  assignment: Readonly<Record<number, number>>;
}

/**
 * The line balance screen's state (docs/norms.md, «Баланс линии»). Until the analyst builds a line
 * (or opens a saved one) the workplaces are shown as parallel benches, each making the whole unit
 * at its own Нвыр: no line, no line efficiency. A line is the analyst's ordered stations with the
 * unit's operations on them; the figures are recomputed from it by @norma/core-wasm/norms on every
 * change, in the browser.
 */
export const lineState = proxy({
  card: null as NormCard | null,
  mode: 'parallel' as 'parallel' | 'line',
  /** The line's stations, workplace ids in order. */
  stations: [] as number[],
  /** operation id → station (workplace id); an operation not in it is not placed on the line yet. */
  assignment: {} as Record<number, number>,
  /** Units per shift; takt = available minutes / demand. */
  demand: 0,
  scenarios: [] as Scenario[],
  error: null as string | null,
});

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The operations a line is made of: the unit's work (losses are not work and never occupy a station). */
export const workOperations = (line: Line) => line.operations.filter((o) => o.category !== 'loss');

const workplaceName = (line: Line, id: number) => line.workplaces.find((w) => w.id === id)?.name ?? `№ ${id}`;

/** The line's stations in order with the operations placed on them. */
export function stationsOf(line: Line, layout: LineLayout): LineStation[] {
  return layout.stations.map((id) => ({
    id,
    name: workplaceName(line, id),
    operations: workOperations(line)
      .filter((o) => layout.assignment[o.operation_id] === id)
      .map((o) => ({ id: o.operation_id, name: o.name, category: o.category, minutes: o.minutes })),
  }));
}

/** The unit's operations not placed on any station of the line yet. */
export function unplacedOf(line: Line, layout: LineLayout) {
  return workOperations(line).filter((o) => !layout.stations.includes(layout.assignment[o.operation_id] ?? -1));
}

export function balanceOf(line: Line, layout: LineLayout, demand: number): LineBalance {
  return lineBalance(stationsOf(line, layout), taktOf(line.available_minutes, demand));
}

/**
 * Each bench making the whole unit side by side, with its own Топ and Нвыр from the measurements
 * done at it; an operation never measured there is named (its time is the card's). A card saved
 * before benches had their own figures has none: each bench shows the card's Нвыр, `ownFigures` false.
 */
export function benchesOf(card: NormCard) {
  const line = card.card.line;
  const nameOf = (id: number) =>
    line.operations.find((o) => o.operation_id === id)?.name ?? card.card.operations.find((o) => o.operation_id === id)?.name ?? `№ ${id}`;
  if (line.benches) {
    return line.benches.map((b) => ({
      id: b.workplace_id,
      name: b.name,
      top: b.top_minutes,
      output: b.output_exact,
      whole: b.output,
      borrowed: b.borrowed_operation_ids.map(nameOf),
      ownFigures: true,
    }));
  }
  const figure = (key: string) => card.card.figures.find((f) => f.key === key)?.value ?? null;
  return line.workplaces.map((w) => ({
    id: w.id,
    name: w.name,
    top: figure('operative'),
    output: figure('output'),
    whole: figure('output_whole'),
    borrowed: [] as string[],
    ownFigures: false,
  }));
}

function layoutOf(scenario: SavedLine): { stations: number[]; assignment: Record<number, number> } {
  return { stations: [...scenario.stations], assignment: Object.fromEntries(scenario.assignment.map((a) => [a.operation_id, a.workplace_id])) };
}

/** Opens a saved scenario's line. */
export function loadScenario(scenario: SavedLine) {
  const { stations, assignment } = layoutOf(scenario);
  lineState.stations = stations;
  lineState.assignment = assignment;
  lineState.demand = scenario.demand;
  lineState.mode = 'line';
}

/** The layout of a saved scenario, for the comparison table. */
export const scenarioLayout = layoutOf;

export async function openLine(cardId: number) {
  lineState.error = null;
  try {
    const [card, saved] = await Promise.all([
      api.get('/api/v1/norms/{id}', { path: { id: cardId } }),
      api.get('/api/v1/norms/{id}/line_scenarios', { path: { id: cardId } }),
    ]);
    lineState.card = card;
    lineState.scenarios = saved.scenarios;
    const output = card.card.figures.find((f) => f.key === 'output_whole')?.value ?? null;
    lineState.demand = output && output > 0 ? output : 1;
    lineState.stations = [];
    lineState.assignment = {};
    lineState.mode = 'parallel';
    // The line the analyst saved last is the line; without one the benches stay parallel.
    const last = saved.scenarios.at(-1);
    if (last) loadScenario(last);
  } catch (err) {
    lineState.error = errorText(err);
  }
}

/** Starts a line: every workplace a station in the card's order, no operation placed yet. */
export function buildLine() {
  const line = lineState.card?.card.line;
  if (!line) return;
  lineState.stations = line.workplaces.map((w) => w.id);
  lineState.assignment = {};
  lineState.mode = 'line';
}

export function showParallel() {
  lineState.mode = 'parallel';
}

/** Moves an operation to a station, or off the line (null). */
export function moveTo(operationId: number, stationId: number | null) {
  const next = { ...lineState.assignment };
  if (stationId === null) delete next[operationId];
  else next[operationId] = stationId;
  lineState.assignment = next;
}

/**
 * Moves an operation one station back (−1) or on (+1) along the line; back from the first station
 * takes it off the line, on from off the line puts it on the first station; stays at the end.
 */
export function moveBy(operationId: number, step: -1 | 1) {
  const index = lineState.stations.indexOf(lineState.assignment[operationId] ?? -1);
  const target = index + step;
  if (target < -1 || target >= lineState.stations.length) return;
  moveTo(operationId, target === -1 ? null : lineState.stations[target]!);
}

/** Moves a station one place up the line (−1) or down (+1); stays at the ends. */
export function moveStation(stationId: number, step: -1 | 1) {
  const stations = [...lineState.stations];
  const index = stations.indexOf(stationId);
  const target = index + step;
  if (index < 0 || target < 0 || target >= stations.length) return;
  [stations[index], stations[target]] = [stations[target]!, stations[index]!];
  lineState.stations = stations;
}

/** Puts a station (dragged) just before another one; after the last one when `beforeId` is null. */
export function placeStation(stationId: number, beforeId: number | null) {
  if (stationId === beforeId || !lineState.stations.includes(stationId)) return;
  const rest = lineState.stations.filter((id) => id !== stationId);
  const at = beforeId === null ? rest.length : rest.indexOf(beforeId);
  if (at < 0) return;
  rest.splice(at, 0, stationId);
  lineState.stations = rest;
}

/** Takes a workplace off the line; its operations are no longer placed. */
export function removeStation(stationId: number) {
  lineState.stations = lineState.stations.filter((id) => id !== stationId);
  lineState.assignment = Object.fromEntries(Object.entries(lineState.assignment).filter(([, station]) => station !== stationId));
}

/** Adds a workplace to the end of the line. */
export function addStation(stationId: number) {
  if (!lineState.stations.includes(stationId)) lineState.stations = [...lineState.stations, stationId];
}

export async function saveScenario(name: string) {
  const card = lineState.card;
  if (!card) return false;
  lineState.error = null;
  try {
    const assignment = Object.entries(lineState.assignment)
      .filter(([, station]) => lineState.stations.includes(station))
      .map(([operation, station]) => ({ operation_id: Number(operation), workplace_id: station }));
    const reply = await api.post('/api/v1/norms/{id}/line_scenarios', {
      path: { id: card.id },
      body: { name, demand: lineState.demand, stations: [...lineState.stations], assignment },
    });
    lineState.scenarios = reply.scenarios;
    return true;
  } catch (err) {
    lineState.error = errorText(err);
    return false;
  }
}
