import { describe, expect, it } from 'vitest';
import { toCsv } from './table';

describe('CSV export', () => {
  it('starts with a BOM, separates with semicolons, writes decimal commas and quotes what needs it', () => {
    const csv = toCsv({ title: 'Т', columns: ['Операция', 'Длительность, с'], rows: [['Сборка; редуктора', 12.5], ['Затяжка "крепежа"', null], ['Итого', 3]] });
    expect(csv.startsWith('\ufeff')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual(['Операция;Длительность, с', '"Сборка; редуктора";12,5', '"Затяжка ""крепежа""";', 'Итого;3', '']);
  });
});
