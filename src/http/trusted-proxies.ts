import { BlockList, isIP } from 'node:net';

/* TRUSTED_PROXIES: parsing (config checks it at start-up) and the walk over X-Forwarded-For; no request types here. */

/** Which proxies' X-Forwarded-For to believe: the last `hops` addresses, or addresses in `list`. */
export type TrustedProxies = { hops: number } | { list: BlockList };

/** "::ffff:127.0.0.1" → "127.0.0.1", so IPv4 rules match IPv4-mapped IPv6 sockets. */
export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/**
 * Parses TRUSTED_PROXIES: a hop count ("1") or addresses/CIDRs separated by commas ("10.0.0.0/8, ::1").
 * Throws on an entry that is not an address or a CIDR.
 */
export function parseTrustedProxies(value: string): TrustedProxies {
  if (/^\d+$/.test(value.trim())) return { hops: Number(value.trim()) };
  const list = new BlockList();
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, prefix] = entry.split('/');
    const ip = normalizeIp(address);
    const family = isIP(ip);
    const bits = Number(prefix);
    if (!family || (prefix !== undefined && !(/^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128)))) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, bits, type);
  }
  return { list };
}

/** True when TRUSTED_PROXIES parses (config checks it, so a typo stops start-up). */
export function isValidTrustedProxies(value: string): boolean {
  try {
    parseTrustedProxies(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The client address of a request path: `chain` is X-Forwarded-For's addresses followed by the socket
 * address (nearest last). Walks back from the socket over trusted proxies and stops at the first
 * address we do not trust, or at an entry that is not an address.
 */
export function clientFromChain(chain: string[], trusted: TrustedProxies): string {
  const isTrusted = (ip: string, steps: number) =>
    'hops' in trusted ? steps < trusted.hops : trusted.list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  let i = chain.length - 1;
  while (i > 0 && isTrusted(chain[i], chain.length - 1 - i) && isIP(chain[i - 1])) i--;
  return chain[i];
}
