import type { CheckResultEntry } from '../../db/schema';
import type { CheckKind, CheckStatus } from '../../db/schema/values';
import type { CidrList } from '../../http/cidr-list';

export type { CheckKind, CheckResultEntry, CheckStatus };

/** What one check probes: an explicit server_checks row (id set) or the implicit tcp check (id null). */
export interface CheckSpec {
  id: string | null;
  kind: CheckKind;
  /** Host name or IP address. */
  target: string;
  port: number | null;
  path: string | null;
  expectStatus: number | null;
  expectText: string | null;
  warnDays: number | null;
  expectAddress: string | null;
}

/** Which addresses checks may reach: deny always wins; allow, when set, is the only space allowed. */
export interface TargetPolicy {
  allow?: CidrList;
  deny: CidrList;
  /** The settings refusals name (HEALTH_CHECK_ALLOW_CIDRS / HEALTH_CHECK_DENY_CIDRS unless told). */
  labels?: { allow: string; deny: string };
}

/** What every probe needs besides its check. */
export interface ProbeContext {
  policy: TargetPolicy;
  /** Per probe (connect + answer); 3 s by default. */
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM) for https and tls checks, beside the system's. */
  ca?: string[];
  /** The clock for certificate expiry (tests pass a fixed one). */
  now?: () => Date;
  /** Host name resolution; the system resolver (dns.lookup, the hosts file applies) unless a test injects one. */
  lookup?: HostLookup;
}

/** Every address a host name resolves to; rejects with the resolver's error (code ENOTFOUND when there is none). */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

/** What a probe of one kind finds (runCheck adds the check's id and kind). */
export type ProbeOutcome = Omit<CheckResultEntry, 'checkId' | 'kind'>;

/** A failing outcome: a plain reason for everyone, the raw error for admins. */
export const failing = (error: string, detail: string | null = null): ProbeOutcome => ({
  status: 'failing',
  latencyMs: null,
  error,
  detail,
});
