import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../../config';
import { inCidrList, parseCidrList } from '../../http/cidr-list';
import { rawErrorText } from '../probe';
import type { CheckKind, HostLookup, TargetPolicy } from './types';

/*
 * Where health checks may connect (HEALTH_CHECK_ALLOW_CIDRS / HEALTH_CHECK_DENY_CIDRS). Every probe resolves its
 * target first and connects to the address it checked, so a name cannot change its answer between the two.
 */

/** Loopback and "this host": reachable only when HEALTH_CHECK_ALLOW_CIDRS lists them. */
const LOCAL = parseCidrList('127.0.0.0/8,0.0.0.0/8,::1/128,::/128');

export function targetPolicy(config: Pick<Config, 'health'>): TargetPolicy {
  return { allow: config.health.allowCidrs, deny: config.health.denyCidrs };
}

/**
 * An IP address as the policy reads it: IPv6 in its canonical form, and IPv4-mapped IPv6 (::ffff:127.0.0.1, which
 * URLs write ::ffff:7f00:1) as the IPv4 address.
 */
export function canonicalIp(address: string): string {
  if (isIP(address) !== 6) return address;
  const withoutZone = address.replace(/%.*$/, ''); // fe80::1%eth0: the zone names an interface, not an address
  const compressed = new URL(`http://[${withoutZone}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  return v4(Number.parseInt(mapped[1], 16), Number.parseInt(mapped[2], 16));
}

/** The 8 groups of an IPv6 address. */
function ipv6Groups(ip: string): number[] {
  const [head, tail = ''] = ip.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const [h, t] = [part(head), part(tail)];
  return ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill(0), ...t] : h;
}

const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries and may reach on a translating network: NAT64 (64:ff9b::/96), 6to4
 * (2002::/16), IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d). Null for any other address.
 * Local-use NAT64 (64:ff9b:1::/48) may carry it in more than one place: see embeddedIpv4s.
 */
export function embeddedIpv4(ip: string): string | null {
  return embeddedIpv4s(ip)[0] ?? null;
}

/**
 * Every IPv4 address an IPv6 address may carry (see embeddedIpv4). Local-use NAT64 (64:ff9b:1::/48, RFC 8215) lets
 * the operator choose a /48, /56, /64 or /96 prefix inside it, and RFC 6052 puts the IPv4 address in a different
 * place for each: the last 32 bits always count, and each other layout whose reserved bits (bits 64–71, and the
 * suffix) are zero; an address is refused when any of them is.
 */
export function embeddedIpv4s(ip: string): string[] {
  if (isIP(ip) !== 6) return [];
  const g = ipv6Groups(ip);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [v4(g[6], g[7])];
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return localNat64(g);
  if (g[0] === 0x2002) return [v4(g[1], g[2])];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6], g[7])];
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return [v4(g[6], g[7])];
  return [];
}

/** The candidates of a 64:ff9b:1::/48 address, by prefix length (RFC 6052 section 2.2). */
function localNat64(g: number[]): string[] {
  const b = g.flatMap((x) => [x >> 8, x & 255]);
  const zero = (from: number) => b.slice(from).every((x) => x === 0);
  const out = [b.slice(12, 16).join('.')];
  if (b[8] === 0) {
    if (zero(13)) out.push([b[9], b[10], b[11], b[12]].join('.')); // /64
    if (zero(12)) out.push([b[7], b[9], b[10], b[11]].join('.')); // /56
    if (zero(11)) out.push([b[6], b[7], b[9], b[10]].join('.')); // /48
  }
  return [...new Set(out)];
}

/** Why an address may not be checked (null: it may); an IPv6 address carrying an IPv4 one answers for both. */
export function refusedReason(address: string, policy: TargetPolicy): string | null {
  const ip = canonicalIp(address);
  for (const inner of embeddedIpv4s(ip)) {
    const innerReason = refusedOwnReason(inner, policy);
    if (innerReason) return `${ip} carries ${inner}: ${innerReason}`;
  }
  return refusedOwnReason(ip, policy);
}

function refusedOwnReason(ip: string, policy: TargetPolicy): string | null {
  const { allow, deny } = policy.labels ?? { allow: 'HEALTH_CHECK_ALLOW_CIDRS', deny: 'HEALTH_CHECK_DENY_CIDRS' };
  if (inCidrList(policy.deny, ip)) return `${ip} is in a denied network (${deny})`;
  if (policy.allow) {
    return inCidrList(policy.allow, ip) ? null : `${ip} is outside the allowed networks (${allow})`;
  }
  if (inCidrList(LOCAL, ip)) return `${ip} is a local address (allowed only when ${allow} lists it)`;
  return null;
}

/** Whether a check of this kind connects to its target (dns checks only ask the resolver, so the policy does not apply). */
export const connectsToTarget = (kind: CheckKind) => kind !== 'dns';

/**
 * System lookups at once, at most: getaddrinfo holds one of libuv's 4 threads until the resolver answers, and a lost
 * nameserver must not leave none for password hashing and file reads (checks run inside the web process on PGlite).
 */
export const MAX_SYSTEM_LOOKUPS = 2;
let lookupsRunning = 0;
const waitingLookups: (() => void)[] = [];

/** The system resolver (every address, in the order it gives them), MAX_SYSTEM_LOOKUPS at a time. */
export const systemLookup: HostLookup = async (host) => {
  if (lookupsRunning >= MAX_SYSTEM_LOOKUPS) await new Promise<void>((resolve) => waitingLookups.push(resolve));
  else lookupsRunning++;
  try {
    return await lookup(host, { all: true, verbatim: true });
  } finally {
    const next = waitingLookups.shift();
    if (next) next();
    else lookupsRunning--;
  }
};

export type ResolvedTarget =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: string; detail?: string | null };

/**
 * Resolves a host name (system resolver: the hosts file applies) or takes an IP address, and refuses it when any
 * address it resolves to is refused (a name must not smuggle a denied address in among allowed ones).
 */
export async function resolveTarget(
  host: string,
  policy: TargetPolicy,
  lookupHost: HostLookup = systemLookup,
): Promise<ResolvedTarget> {
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(literal)) addresses = [{ address: canonicalIp(literal), family: isIP(canonicalIp(literal)) }];
  else {
    try {
      addresses = await lookupHost(literal);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const reason = code === 'ENOTFOUND' ? 'host name not found' : 'host name lookup failed';
      return { ok: false, reason, detail: rawErrorText(err) };
    }
  }
  if (!addresses.length) return { ok: false, reason: 'host name not found' };
  for (const a of addresses) {
    const reason = refusedReason(a.address, policy);
    if (reason) return { ok: false, reason: `Refused: ${reason}` };
  }
  const first = addresses[0];
  const address = canonicalIp(first.address);
  return { ok: true, address, family: isIP(address) === 6 ? 6 : 4 };
}
