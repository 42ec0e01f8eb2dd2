/**
 * Test support: whether a DWG holds a string's bytes. Strings sit in the objects' bit stream at any
 * bit offset, so the file is searched at all eight alignments.
 */
export function dwgHolds(file: Uint8Array, part: Uint8Array): boolean {
  const wanted = Buffer.from(part);
  return [0, 1, 2, 3, 4, 5, 6, 7].some((shift) =>
    Buffer.from(file.map((b, i) => ((b << shift) | ((file[i + 1] ?? 0) >> (8 - shift))) & 0xff)).includes(wanted),
  );
}
