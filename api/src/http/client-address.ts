/** Set by the server (main.ts) over whatever the client sent: the address clientAddress found. */
export const CLIENT_IP_HEADER = 'x-norma-client-ip';
/** Where a call carries a share key (auth/share-keys.ts): a header, or the query for a `<video src>`. */
export const SHARE_KEY_HEADER = 'x-norma-share-key';
export const SHARE_KEY_QUERY = 'key';

/**
 * The client address a request is counted under (sign-in and registration limits). Without a proxy
 * it is the connection's peer. Behind a reverse proxy every connection comes from the proxy, so
 * when the peer is one of NORMA_TRUSTED_PROXY the address is taken from X-Forwarded-For: the
 * right-most entry that is not itself a trusted proxy (entries to its left are whatever the client
 * wrote and prove nothing). A peer that is not trusted cannot set its address by a header.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trustedProxies: readonly string[]): string {
  const from = peer ? plainAddress(peer) : 'unknown';
  if (!forwardedFor || !trustedProxies.includes(from)) return from;
  const hops = forwardedFor
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.includes(hops[i]!)) return hops[i]!;
  return hops[0] ?? from;
}

/** `::ffff:10.0.0.1` (IPv4 on an IPv6 socket) is `10.0.0.1`; IPv6 letters in lower case. */
function plainAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

/** NORMA_TRUSTED_PROXY: addresses separated by commas or spaces, in the same plain form. */
export const parseTrustedProxies = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(plainAddress);
