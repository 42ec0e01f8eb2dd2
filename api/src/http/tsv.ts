export type TsvCell = string | number | null;

/**
 * One TSV field of a file the API gives out: tabs and line breaks would break the table, so they
 * become spaces; a text a spreadsheet would run as a formula (`=HYPERLINK(…)` as an operation
 * name) gets a leading apostrophe, as OWASP advises. Numbers are never touched (−3.5 stays a
 * number), nor is a text that is only a decimal number ("-3.500"): a spreadsheet reads it as one.
 */
export function tsvField(value: TsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = value.replace(/[\t\r\n]+/g, ' ');
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  return /^[=+\-@]/.test(text) ? `'${text}` : text;
}

/** A whole TSV file: the header row, then one line per row, every field through `tsvField`, ending with a line break. */
export function tsvText(header: readonly string[], rows: readonly (readonly TsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(tsvField).join('\t')).join('\n') + '\n';
}
