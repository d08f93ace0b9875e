import { DEFAULT_DENY_CIDRS } from '../../../src/config';
import { parseCidrList } from '../../../src/http/cidr-list';
import type { CheckSpec, ProbeContext } from '../../../src/servers/probes';
import type { HostLookup, TargetPolicy } from '../../../src/servers/probes/types';

/** The policy tests run with (HEALTH_CHECK_ALLOW_CIDRS as tests/helpers/app.ts sets it, the default deny list). */
export const testPolicy = (allow: string | null = '127.0.0.0/8,::1', deny = DEFAULT_DENY_CIDRS): TargetPolicy => ({
  allow: allow === null ? undefined : parseCidrList(allow),
  deny: parseCidrList(deny),
});

export const testContext = (over: Partial<ProbeContext> = {}): ProbeContext => ({
  policy: testPolicy(),
  timeoutMs: 2000,
  ...over,
});

export const check = (over: Partial<CheckSpec> & Pick<CheckSpec, 'kind' | 'target'>): CheckSpec => ({
  id: null,
  port: null,
  path: null,
  expectStatus: null,
  expectText: null,
  warnDays: null,
  expectAddress: null,
  ...over,
});

/** A resolver with fixed answers (names it does not know are not found, as getaddrinfo says it), and the names asked. */
export function fixedLookup(answers: Record<string, string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const addresses = answers[host];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}
