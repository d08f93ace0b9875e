import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { clientFromChain, normalizeIp, parseTrustedProxies, type TrustedProxies } from './trusted-proxies';

const parsed = new Map<string, TrustedProxies>();
const trustedFrom = (value: string) => parsed.get(value) ?? parsed.set(value, parseTrustedProxies(value)).get(value)!;

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
