import { describe, expect, it } from 'vitest';
import type { NormCard } from '../../api/types';
import { benchesOf } from './lineState';

/** The parallel benches' figures (docs/norms.md, «Баланс линии»): each bench's own, or the card's for a card saved before benches had them. */
const figures = [
  { key: 'operative', label: 'Топ', value: 10, unit: 'мин', source: '' },
  { key: 'output', label: 'Нвыр', value: 40.5, unit: 'шт.', source: '' },
  { key: 'output_whole', label: 'Нвыр', value: 40, unit: 'шт.', source: '' },
];
const line: NormCard['card']['line'] = {
  workplaces: [
    { id: 1, name: 'Стол 1' },
    { id: 2, name: 'Стол 2' },
  ],
  operations: [
    { operation_id: 11, name: 'Сборка', category: 'main', workplace_id: 1, minutes: 7 },
    { operation_id: 12, name: 'Пайка', category: 'main', workplace_id: 1, minutes: 3 },
  ],
  available_minutes: 420,
};
const cardOf = (l: NormCard['card']['line']) => ({ card: { figures, operations: [], line: l } }) as unknown as NormCard;

describe('parallel benches', () => {
  it('each bench shows its own Топ and Нвыр and names the operations whose time is the card’s', () => {
    const benches = benchesOf(
      cardOf({
        ...line,
        benches: [
          { workplace_id: 1, name: 'Стол 1', top_minutes: 9, output_exact: 45.1, output: 45, measured_operations: 2, borrowed_operation_ids: [] },
          { workplace_id: 2, name: 'Стол 2', top_minutes: 12, output_exact: 33.8, output: 33, measured_operations: 1, borrowed_operation_ids: [12] },
        ],
      }),
    );
    expect(benches.map((b) => [b.id, b.top, b.output, b.whole, b.borrowed, b.ownFigures])).toEqual([
      [1, 9, 45.1, 45, [], true],
      [2, 12, 33.8, 33, ['Пайка'], true],
    ]);
  });

  it('a card saved without benches still opens: every bench shows the card’s Топ and Нвыр, marked as the card’s', () => {
    expect(benchesOf(cardOf(line)).map((b) => [b.id, b.top, b.output, b.whole, b.ownFigures])).toEqual([
      [1, 10, 40.5, 40, false],
      [2, 10, 40.5, 40, false],
    ]);
  });
});
