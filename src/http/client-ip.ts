import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';

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

const parsed = new Map<string, TrustedProxies>();
const trustedFrom = (value: string) => parsed.get(value) ?? parsed.set(value, parseTrustedProxies(value)).get(value)!;

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

function socketAddress(c: Context): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalizeIp(address) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client's address: the socket's, or — when TRUSTED_PROXIES is set and the request came through
 * those proxies — the address they put in X-Forwarded-For. 'unknown' when there is no socket (app.request in tests).
 */
export function clientIp(c: Context<AppEnv>): string {
  const socket = socketAddress(c);
  if (!socket) return 'unknown';
  const setting = c.var.deps?.config.trustedProxies;
  if (!setting) return socket;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((a) => normalizeIp(a.trim()))
    .filter(Boolean);
  return clientFromChain([...forwarded, socket], trustedFrom(setting));
}
