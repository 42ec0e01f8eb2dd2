/**
 * A report table as data, for the XLSX and CSV downloads: column titles and rows of plain
 * values (numbers stay numbers, so a spreadsheet can compute with them).
 */
export type ExportValue = string | number | boolean | null;

export interface ExportTable {
  /** Sheet name and part of the file name. */
  title: string;
  columns: string[];
  rows: ExportValue[][];
}

/**
 * A text a spreadsheet would run as a formula (`=HYPERLINK(…)` as an operation name) gets a
 * leading apostrophe, as OWASP advises for CSV injection. Numbers are never touched: −3,5 stays
 * a number a spreadsheet can compute with.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvCell(value: ExportValue): string {
  let text: string;
  if (value === null) text = '';
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value).replace('.', ',') : '';
  else if (typeof value === 'boolean') text = value ? 'да' : 'нет';
  else text = neutraliseFormula(value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV as Excel in a Russian locale opens it: UTF-8 with a BOM (so Cyrillic is read right),
 * `;` between fields, a decimal comma, CRLF line ends.
 */
export function toCsv(table: ExportTable): string {
  const lines = [table.columns, ...table.rows].map((row) => row.map(csvCell).join(';'));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/**
 * The XLSX workbook of one table (exceljs, loaded on first use). A text cell stays text there even
 * when it starts with `=`: exceljs writes a formula only for a `{ formula }` value (table.test.ts).
 */
export async function toXlsx(table: ExportTable): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Norma';
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(table.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Таблица', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const header = sheet.addRow(table.columns);
  header.font = { bold: true };
  header.alignment = { vertical: 'middle', wrapText: true };
  for (const row of table.rows) sheet.addRow(row.map((v) => (typeof v === 'boolean' ? (v ? 'да' : 'нет') : v)));
  table.columns.forEach((title, i) => {
    const longest = Math.max(title.length, ...table.rows.slice(0, 500).map((r) => String(r[i] ?? '').length));
    sheet.getColumn(i + 1).width = Math.min(60, Math.max(8, longest + 2));
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
