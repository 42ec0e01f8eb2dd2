/**
 * File systems limit a name to 255 bytes, not characters: 200 Cyrillic letters are 400 bytes
 * (ENAMETOOLONG). Stored names are cut to fit, on a character boundary, keeping the extension.
 */
export const MAX_NAME_BYTES = 255;

const encoder = new TextEncoder();
export const byteLength = (text: string) => encoder.encode(text).byteLength;

/** The longest start of `text` that fits in `maxBytes` of UTF-8 (whole code points only). */
export function cutToBytes(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (used + size > maxBytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * `name` cut so that it takes at most MAX_NAME_BYTES − `reserveBytes` (room for a `~2` suffix the
 * caller may add), keeping its extension. Names that fit are returned as they are.
 */
export function fitFileName(name: string, reserveBytes = 0): string {
  const limit = MAX_NAME_BYTES - reserveBytes;
  if (byteLength(name) <= limit) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const room = limit - byteLength(extension);
  // An absurd "extension" longer than the limit itself: cut the whole name instead.
  if (room < 1) return cutToBytes(name, limit);
  return cutToBytes(stem, room).trimEnd() + extension;
}
