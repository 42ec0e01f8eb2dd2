/**
 * One TSV field of a file the API gives out: tabs and line breaks would break the table, so they
 * become spaces; a text a spreadsheet would run as a formula (`=HYPERLINK(…)` as an operation
 * name) gets a leading apostrophe, as OWASP advises. Numbers are never touched (−3.5 stays a number).
 */
export function tsvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = value.replace(/[\t\r\n]+/g, ' ');
  return /^[=+\-@]/.test(text) ? `'${text}` : text;
}
