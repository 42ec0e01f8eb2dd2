import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address';

describe('client address behind a trusted proxy (NORMA_TRUSTED_PROXY)', () => {
  const trusted = parseTrustedProxies('10.0.0.2, ::1 ::FFFF:10.0.0.3');

  it('reads the list in the plain form', () => {
    expect(trusted).toEqual(['10.0.0.2', '::1', '10.0.0.3']);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });

  it('uses the peer when it is not a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', null, trusted)).toBe('203.0.113.9');
    expect(clientAddress(undefined, '198.51.100.1', trusted)).toBe('unknown');
  });

  it('takes the right-most untrusted hop from a trusted proxy, so a client cannot choose its address', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.1', trusted)).toBe('198.51.100.1');
    // The client wrote «1.1.1.1» itself; the proxy appended the address it saw.
    expect(clientAddress('::ffff:10.0.0.2', '1.1.1.1, 198.51.100.1', trusted)).toBe('198.51.100.1');
    // Two proxies in a row: the hop before them.
    expect(clientAddress('::1', '198.51.100.1, 10.0.0.3', trusted)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.2', '10.0.0.3', trusted)).toBe('10.0.0.3');
    expect(clientAddress('10.0.0.2', ' , ', trusted)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', null, trusted)).toBe('10.0.0.2');
  });
});
