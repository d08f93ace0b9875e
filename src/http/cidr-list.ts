import { BlockList, isIP } from 'node:net';
import { normalizeIp } from './trusted-proxies';

/** A parsed list of addresses and CIDRs ("127.0.0.0/8, ::1"), with the text it came from. */
export interface CidrList {
  entries: string[];
  list: BlockList;
}

/** Parses "a.b.c.d/n, x::/m, single-address" (commas between); throws naming the first bad entry. */
export function parseCidrList(value: string): CidrList {
  const list = new BlockList();
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const ip = normalizeIp(address);
    const family = isIP(ip);
    const bits = Number(prefix);
    if (!family || (prefix !== undefined && !(/^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128))))
      throw new Error(`"${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, bits, type);
  }
  return { entries, list };
}

/** True when the address (IPv4-mapped IPv6 read as IPv4) is in the list. */
export function inCidrList(cidrs: CidrList, address: string): boolean {
  const ip = normalizeIp(address);
  const family = isIP(ip);
  return family !== 0 && cidrs.list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** Host names (each with its subdomains) and addresses/CIDRs, as one setting lists them ("hooks.example.com, 10.0.0.0/8"). */
export interface HostsAndCidrs {
  /** The entries as written (lower case), for messages. */
  entries: string[];
  hosts: string[];
  /** Undefined when no entry is an address or CIDR. */
  cidrs?: CidrList;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

/** Parses "name, a.b.c.d/n, x::/m" (commas between); throws naming the first entry that is neither. */
export function parseHostsAndCidrs(value: string): HostsAndCidrs {
  const entries = value
    .split(',')
    .map((e) => e.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  const hosts: string[] = [];
  const addresses: string[] = [];
  for (const entry of entries) {
    const address = entry.replace(/^\[(.*)\]$/, '$1');
    if (isIP(normalizeIp(address.split('/')[0]))) addresses.push(address);
    else if (HOST_NAME.test(entry) && !/^[\d.]+$/.test(entry)) hosts.push(entry);
    else throw new Error(`"${entry}" is not a host name, IP address or CIDR`);
  }
  return { entries, hosts, cidrs: addresses.length ? parseCidrList(addresses.join(',')) : undefined };
}
