import { lineBalance, taktOf, type LineBalance, type LineStation } from '@norma/core-wasm/norms';
import { proxy } from 'valtio';
import { api } from '../../api/client';
import type { LineScenarios, NormCard } from '../../api/types';

type Line = NormCard['card']['line'];
type Scenario = LineScenarios['scenarios'][number];

/**
 * The line balance screen's state (docs/norms.md, «Баланс линии»): the card's line, which
 * workplace each operation is on now, the demand, the saved scenarios. The figures are
 * recomputed from these by @norma/core-wasm/norms on every change, in the browser.
 */
export const lineState = proxy({
  card: null as NormCard | null,
  /** operation id → workplace id. */
  assignment: {} as Record<number, number>,
  /** Units per shift; takt = available minutes / demand. */
  demand: 0,
  scenarios: [] as Scenario[],
  /** The operation the keyboard moves. */
  selected: null as number | null,
  error: null as string | null,
});

export function initialAssignment(line: Line): Record<number, number> {
  const first = line.workplaces[0]?.id ?? 0;
  return Object.fromEntries(line.operations.map((o) => [o.operation_id, o.workplace_id ?? first]));
}

/** The line's stations with the operations placed by `assignment`. */
export function stationsOf(line: Line, assignment: Record<number, number>): LineStation[] {
  return line.workplaces.map((w) => ({
    id: w.id,
    name: w.name,
    operations: line.operations
      .filter((o) => assignment[o.operation_id] === w.id)
      .map((o) => ({ id: o.operation_id, name: o.name, category: o.category, minutes: o.minutes })),
  }));
}

export function balanceOf(line: Line, assignment: Record<number, number>, demand: number): LineBalance {
  return lineBalance(stationsOf(line, assignment), taktOf(line.available_minutes, demand));
}

export async function openLine(cardId: number) {
  lineState.error = null;
  try {
    const [card, saved] = await Promise.all([
      api.get('/api/v1/norms/{id}', { path: { id: cardId } }),
      api.get('/api/v1/norms/{id}/line_scenarios', { path: { id: cardId } }),
    ]);
    lineState.card = card;
    lineState.assignment = initialAssignment(card.card.line);
    const output = card.card.figures.find((f) => f.key === 'output_whole')?.value ?? null;
    lineState.demand = output && output > 0 ? output : 1;
    lineState.scenarios = saved.scenarios;
  } catch (err) {
    lineState.error = err instanceof Error ? err.message : String(err);
  }
}

/** Moves an operation to a workplace (drag and drop, or the keys). */
export function moveTo(operationId: number, workplaceId: number) {
  lineState.assignment = { ...lineState.assignment, [operationId]: workplaceId };
}

/** Moves an operation one workplace left (−1) or right (+1); stays at the ends. */
export function moveBy(operationId: number, step: -1 | 1) {
  const workplaces = lineState.card?.card.line.workplaces ?? [];
  const index = workplaces.findIndex((w) => w.id === lineState.assignment[operationId]);
  const target = workplaces[index + step];
  if (target) moveTo(operationId, target.id);
}

export function loadScenario(scenario: { demand: number; assignment: readonly { operation_id: number; workplace_id: number }[] }) {
  const line = lineState.card?.card.line;
  if (!line) return;
  lineState.assignment = { ...initialAssignment(line), ...Object.fromEntries(scenario.assignment.map((a) => [a.operation_id, a.workplace_id])) };
  lineState.demand = scenario.demand;
}

export async function saveScenario(name: string) {
  const card = lineState.card;
  if (!card) return;
  try {
    const assignment = Object.entries(lineState.assignment).map(([operation, workplace]) => ({ operation_id: Number(operation), workplace_id: workplace }));
    const reply = await api.post('/api/v1/norms/{id}/line_scenarios', { path: { id: card.id }, body: { name, demand: lineState.demand, assignment } });
    lineState.scenarios = reply.scenarios;
  } catch (err) {
    lineState.error = err instanceof Error ? err.message : String(err);
  }
}
