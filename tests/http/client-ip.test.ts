import { describe, expect, it } from 'vitest';
import { clientFromChain, normalizeIp, parseTrustedProxies } from '../../src/http/trusted-proxies';

describe('client address (TRUSTED_PROXIES)', () => {
  it('reads IPv4-mapped IPv6 socket addresses as IPv4', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::1')).toBe('::1');
  });

  it('with a hop count, takes the address that many hops before the socket', () => {
    const one = parseTrustedProxies('1');
    expect(clientFromChain(['192.0.2.1', '127.0.0.1'], one)).toBe('192.0.2.1');
    // Whatever the client wrote into X-Forwarded-For before our proxy's entry is ignored.
    expect(clientFromChain(['6.6.6.6', '192.0.2.1', '127.0.0.1'], one)).toBe('192.0.2.1');
    expect(clientFromChain(['6.6.6.6', '192.0.2.1', '198.51.100.2', '127.0.0.1'], parseTrustedProxies('2'))).toBe(
      '192.0.2.1',
    );
    expect(clientFromChain(['127.0.0.1'], one)).toBe('127.0.0.1');
  });

  it('with a list, walks back over trusted proxies to the first address it does not trust', () => {
    const list = parseTrustedProxies('127.0.0.1, 198.51.100.0/24, fd00::/8');
    expect(clientFromChain(['6.6.6.6', '192.0.2.1', '198.51.100.9', '127.0.0.1'], list)).toBe('192.0.2.1');
    expect(clientFromChain(['192.0.2.1', 'fd00::5'], list)).toBe('192.0.2.1');
    // A request that did not come through a trusted proxy: the socket address, whatever the header says.
    expect(clientFromChain(['192.0.2.1', '203.0.113.7'], list)).toBe('203.0.113.7');
    // An entry that is not an address stops the walk at the last trusted hop's report.
    expect(clientFromChain(['garbage', '198.51.100.1', '127.0.0.1'], list)).toBe('198.51.100.1');
  });

  it('refuses entries that are not addresses or CIDRs', () => {
    expect(() => parseTrustedProxies('198.51.100.0/40')).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseTrustedProxies('nope')).toThrow(/TRUSTED_PROXIES/);
  });
});
