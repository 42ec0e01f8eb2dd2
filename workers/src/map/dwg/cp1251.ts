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
 * A string as an R2000 DWG stores it for every reader: ASCII as is, everything else as AutoCAD's
 * «\U+XXXX» escape. The code page alone is not enough: libdxfrw (LibreCAD, QGIS) decodes R2000
 * strings as Windows-1252 whatever the header says, but AutoCAD, LibreDWG and libdxfrw all read
 * the escape.
 */
export function encodeDwgText(text: string): Uint8Array {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += c < 0x80 ? ch : c <= 0xffff ? `\\U+${c.toString(16).toUpperCase().padStart(4, '0')}` : '?';
  }
  return new Uint8Array([...out].map((ch) => ch.charCodeAt(0)));
}

/** Whether every character of the string is in Windows-1251. */
export function fitsCp1251(text: string): boolean {
  for (const ch of text) if (ch.codePointAt(0)! >= 0x80 && !CODE.has(ch)) return false;
  return true;
}
