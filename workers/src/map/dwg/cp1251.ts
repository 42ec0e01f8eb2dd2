/**
 * Windows-1251, the code page of the DXF export ($DWGCODEPAGE ANSI_1251): characters outside it
 * become «?» here, so the DXF writer uses it only for strings that fit (fitsCp1251).
 */
const HIGH =
  'ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏђ‘’“”•–—\uFFFD™љ›њќћџ\u00A0ЎўЈ¤Ґ¦§Ё©Є«¬\u00AD®Ї°±Ііґµ¶·ё№є»јЅѕї' + 'АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюя';

const CODE = new Map<string, number>();
[...HIGH].forEach((ch, i) => ch !== '\uFFFD' && CODE.set(ch, 0x80 + i));

export function encodeCp1251(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out.push(c < 0x80 ? c : (CODE.get(ch) ?? 0x3f));
  }
  return new Uint8Array(out);
}

/**
 * How the DWG stores strings that are not ASCII (docs/map.md «DWG»). No one form serves every
 * reader: libdxfrw (LibreCAD, QGIS's DWG import) decodes R2000 strings as Windows-1252 whatever the
 * header says and reads «\U+XXXX»; GDAL's CAD driver decodes them by the header's code page and
 * shows the escape as it is.
 * - `unicode`: everything else as AutoCAD's «\U+XXXX» escape (LibreCAD, LibreDWG; AutoCAD by the format).
 * - `cp1251`: characters of Windows-1251 as its bytes, the code page the header names (GDAL, LibreDWG);
 *   the rest as its nearest readable form in Windows-1251 (cp1251Readable): GDAL would show an escape
 *   as it is, and an R2000 string has no other way to carry it.
 */
export type DwgTextEncoding = 'unicode' | 'cp1251';

/** Characters with no decomposition into Windows-1251, written as a planner would write them. */
const SPELLED: Record<string, string> = { '₽': 'руб.', '⁄': '/', '−': '-', '×': 'x', '÷': ':', '≤': '<=', '≥': '>=', '≠': '!=', '…': '...' };

/**
 * A character outside Windows-1251 in the nearest form that fits it: its compatibility decomposition
 * without accents («é» → «e», «½» → «1/2», «²» → «2»), a usual spelling («₽» → «руб.»), else «?».
 */
export function cp1251Readable(ch: string): string {
  if (ch.codePointAt(0)! < 0x80 || CODE.has(ch)) return ch;
  if (SPELLED[ch]) return SPELLED[ch];
  const parts = [...ch.normalize('NFKD').replace(/\p{M}/gu, '')].map((part) => (part.codePointAt(0)! < 0x80 || CODE.has(part) ? part : (SPELLED[part] ?? '?')));
  return parts.length > 0 ? parts.join('') : '?';
}

/** A string as an R2000 DWG stores it in the given form; ASCII is the same in both. */
export function encodeDwgText(text: string, encoding: DwgTextEncoding = 'unicode'): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (encoding === 'cp1251') out.push(...encodeCp1251(cp1251Readable(ch)));
    else for (const b of c <= 0xffff ? `\\U+${c.toString(16).toUpperCase().padStart(4, '0')}` : '?') out.push(b.charCodeAt(0));
  }
  return new Uint8Array(out);
}

/** Whether every character of the string is in Windows-1251. */
export function fitsCp1251(text: string): boolean {
  for (const ch of text) if (ch.codePointAt(0)! >= 0x80 && !CODE.has(ch)) return false;
  return true;
}
