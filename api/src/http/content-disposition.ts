/**
 * The `content-disposition` header of a file the API gives out (RFC 6266): `filename` carries a
 * printable-ASCII name every client reads, and a name with other characters (Cyrillic) is also
 * given in full as `filename*` (RFC 5987), which browsers prefer.
 */
export function contentDisposition(filename: string, { inline = false, asciiName }: { inline?: boolean; asciiName?: string } = {}): string {
  const type = inline ? 'inline' : 'attachment';
  // Quotes and backslashes would end or escape the quoted string; anything outside printable ASCII is not allowed in it.
  const ascii = (asciiName ?? filename).replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === filename) return `${type}; filename="${ascii}"`;
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
