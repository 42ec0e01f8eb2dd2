import { describe, expect, it } from 'vitest';
import { toCsv, toXlsx } from './table';

describe('CSV export', () => {
  it('starts with a BOM, separates with semicolons, writes decimal commas and quotes what needs it', () => {
    const csv = toCsv({
      title: 'Т',
      columns: ['Операция', 'Длительность, с'],
      rows: [
        ['Сборка; редуктора', 12.5],
        ['Затяжка "крепежа"', null],
        ['Итого', 3],
      ],
    });
    expect(csv.startsWith('\ufeff')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual(['Операция;Длительность, с', '"Сборка; редуктора";12,5', '"Затяжка ""крепежа""";', 'Итого;3', '']);
  });
});

describe('formulas in exports', () => {
  const hostile = ['=HYPERLINK("http://evil.example","Нажми")', '+1+2', '-2+3', '@SUM(A1:A2)', '\tотступ', '\rвозврат'];

  it('CSV: a text that starts with = + - @ tab or CR gets a leading apostrophe; numbers, negative ones too, stay numbers', () => {
    const csv = toCsv({ title: 'Т', columns: ['Операция', 'Отклонение'], rows: [...hostile.map((name) => [name, -3.5]), ['Сборка', -1]] });
    const lines = csv.slice(1).split('\r\n');
    expect(lines.slice(1, 4)).toEqual([`"'=HYPERLINK(""http://evil.example"",""Нажми"")";-3,5`, "'+1+2;-3,5", "'-2+3;-3,5"]);
    expect(lines[4]).toBe("'@SUM(A1:A2);-3,5");
    expect(lines[5]).toBe("'\tотступ;-3,5");
    expect(lines.at(-2)).toBe('Сборка;-1');
    // No field of the file starts with a formula character any more.
    const fields = csv
      .slice(1)
      .split(/;|\r\n/)
      .map((f) => f.replace(/^"/, ''));
    expect(fields.filter((f) => /^[=+@]/.test(f))).toEqual([]);
  });

  it('XLSX: such texts are plain strings, not formulas, and numbers stay numbers', async () => {
    const { default: ExcelJS } = await import('exceljs');
    // XML turns a CR into a line feed: that text is left out here (it is text either way).
    const texts = hostile.filter((name) => !name.startsWith('\r'));
    const blob = await toXlsx({ title: 'Т', columns: ['Операция', 'Отклонение'], rows: texts.map((name) => [name, -3.5]) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await blob.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    texts.forEach((name, i) => {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
      expect(row.getCell(1).value).toBe(name);
      expect(row.getCell(2).value).toBe(-3.5);
    });
  });
});
