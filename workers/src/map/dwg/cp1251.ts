/**
 * Windows-1251: AutoCAD 2000 keeps strings in the drawing code page ($DWGCODEPAGE ANSI_1251), not
 * Unicode. Characters outside the code page become «?».
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
