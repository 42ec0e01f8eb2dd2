import { beforeEach, describe, expect, it } from 'vitest';
import type { NormCard } from '../../api/types';
import { addStation, balanceOf, buildLine, lineState, moveBy, moveStation, placeStation, removeStation, stationsOf, unplacedOf } from './lineState';

/** A card's line: three benches, three operations of the unit and one loss (idle). */
const line: NormCard['card']['line'] = {
  workplaces: [
    { id: 1, name: 'Стол 1' },
    { id: 2, name: 'Стол 2' },
    { id: 3, name: 'Стол 3' },
  ],
  operations: [
    { operation_id: 11, name: 'a', category: 'main', workplace_id: 1, minutes: 4 },
    { operation_id: 12, name: 'b', category: 'aux', workplace_id: 1, minutes: 1 },
    { operation_id: 13, name: 'c', category: 'main', workplace_id: 1, minutes: 3 },
    { operation_id: 14, name: 'простой', category: 'loss', workplace_id: 1, minutes: 2 },
  ],
  available_minutes: 420,
};

beforeEach(() => {
  lineState.card = { card: { line } } as NormCard;
  buildLine();
});

const layout = () => ({ stations: lineState.stations, assignment: lineState.assignment });

describe('the analyst’s line', () => {
  it('starts with every bench a station in the card’s order and nothing placed; the loss is never an operation of the line', () => {
    expect(lineState.mode).toBe('line');
    expect(lineState.stations).toEqual([1, 2, 3]);
    expect(unplacedOf(line, layout()).map((o) => o.name)).toEqual(['a', 'b', 'c']);
  });

  it('→ puts an operation on the next station, ← takes it back, off the line before the first; stays at the last', () => {
    moveBy(11, 1);
    expect(lineState.assignment[11]).toBe(1);
    moveBy(11, 1);
    moveBy(11, 1);
    moveBy(11, 1);
    expect(lineState.assignment[11]).toBe(3);
    moveBy(11, -1);
    expect(lineState.assignment[11]).toBe(2);
    moveBy(11, -1);
    moveBy(11, -1);
    expect(lineState.assignment[11]).toBeUndefined();
    moveBy(11, -1);
    expect(lineState.assignment[11]).toBeUndefined();
  });

  it('stations move up and down, are dropped before another, taken off (their operations with them) and added at the end', () => {
    moveStation(3, -1);
    expect(lineState.stations).toEqual([1, 3, 2]);
    moveStation(1, -1);
    expect(lineState.stations).toEqual([1, 3, 2]);
    placeStation(2, 1);
    expect(lineState.stations).toEqual([2, 1, 3]);
    placeStation(2, null);
    expect(lineState.stations).toEqual([1, 3, 2]);
    moveBy(11, 1);
    removeStation(1);
    expect(lineState.stations).toEqual([3, 2]);
    expect(lineState.assignment[11]).toBeUndefined();
    addStation(1);
    expect(lineState.stations).toEqual([3, 2, 1]);
  });

  it('the figures follow the order: a on Стол 3, b and c on Стол 1 → Σt 8, C 4, efficiency 100 %', () => {
    removeStation(2);
    moveStation(3, -1);
    moveBy(11, 1);
    moveBy(12, 1);
    moveBy(12, 1);
    moveBy(13, 1);
    moveBy(13, 1);
    expect(stationsOf(line, layout()).map((s) => [s.name, s.operations.map((o) => o.name)])).toEqual([
      ['Стол 3', ['a']],
      ['Стол 1', ['b', 'c']],
    ]);
    const b = balanceOf(line, layout(), 100);
    expect([b.totalMinutes, b.cycleMinutes, b.efficiency, b.minimumStations]).toEqual([8, 4, 1, 2]);
  });
});
