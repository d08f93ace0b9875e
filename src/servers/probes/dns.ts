import { isIP } from 'node:net';
import { canonicalIp, systemLookup } from './targets';
import { type CheckSpec, failing, type ProbeContext, type ProbeOutcome } from './types';

/**
 * A dns check: the name resolves with the system resolver (dns.lookup: the hosts file applies; no nameserver is
 * asked directly), to expectAddress when set. No connection is made, so the target policy does not apply.
 */
export async function probeDns(spec: CheckSpec, ctx: ProbeContext): Promise<ProbeOutcome> {
  const started = performance.now();
  const answers = await (ctx.lookup ?? systemLookup)(spec.target.replace(/^\[(.*)\]$/, '$1'));
  const latencyMs = Math.round(performance.now() - started);
  if (!answers.length) return failing('host name not found');
  const { expectAddress } = spec;
  if (expectAddress && !answers.some((a) => sameAddress(a.address, expectAddress))) {
    const addresses = answers.map((a) => canonicalIp(a.address)).join(', ');
    return { ...failing(`resolves to ${addresses}, expected ${expectAddress}`), latencyMs };
  }
  return { status: 'ok', latencyMs, error: null, detail: null };
}

/** The same address however it is written (::1 and 0:0::1; ::ffff:127.0.0.1 and 127.0.0.1). */
const sameAddress = (a: string, b: string) => isIP(b) !== 0 && canonicalIp(a) === canonicalIp(b);
