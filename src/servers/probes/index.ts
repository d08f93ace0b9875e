import { readFileSync } from 'node:fs';
import type { Config } from '../../config';
import { plainErrorText, rawErrorText, timedOutText } from '../probe';
import type { Server } from '../schemas';
import { ProbeTimeout, withDeadline } from './deadline';
import { probeDns } from './dns';
import { probeHttp } from './http';
import { targetPolicy } from './targets';
import { probeTcpCheck } from './tcp';
import { probeTls } from './tls';
import {
  type CheckKind,
  type CheckResultEntry,
  type CheckSpec,
  failing,
  type ProbeContext,
  type ProbeOutcome,
} from './types';

export type { CheckResultEntry, CheckSpec, ProbeContext } from './types';

type Probe = (spec: CheckSpec, ctx: ProbeContext, signal: AbortSignal) => Promise<ProbeOutcome>;

const PROBES: Record<CheckKind, Probe> = {
  tcp: probeTcpCheck,
  http: probeHttp,
  https: probeHttp,
  tls: probeTls,
  dns: probeDns,
};

/** What an error no plain word covers is called, per kind. */
const FAILED: Record<CheckKind, string> = {
  tcp: 'connection failed',
  http: 'request failed',
  https: 'request failed',
  tls: 'TLS handshake failed',
  dns: 'host name lookup failed',
};

/** The check a server without explicit checks has: TCP to its IP address (else hostname) on monitorPort. */
export function implicitCheck(server: Pick<Server, 'ipAddress' | 'hostname' | 'monitorPort'>): CheckSpec | null {
  const target = server.ipAddress ?? server.hostname;
  if (!target) return null;
  return {
    id: null,
    kind: 'tcp',
    target,
    port: server.monitorPort,
    path: null,
    expectStatus: null,
    expectText: null,
    warnDays: null,
    expectAddress: null,
  };
}

/** The probe context from configuration (the extra CA file is read once per call: call it per round). */
export function probeContext(config: Pick<Config, 'health'>, timeoutMs = 3000): ProbeContext {
  const ca = config.health.caFile ? [readFileSync(config.health.caFile, 'utf8')] : undefined;
  return { policy: targetPolicy(config), timeoutMs, ca };
}

/**
 * Runs one check within ctx.timeoutMs: every kind that connects resolves and vets its target first and connects
 * only to the vetted address. Never throws: an error is a failing result with a plain reason and the raw text.
 */
export async function runCheck(spec: CheckSpec, ctx: ProbeContext): Promise<CheckResultEntry> {
  const base = { checkId: spec.id, kind: spec.kind };
  if (!Object.hasOwn(PROBES, spec.kind)) return { ...base, ...failing(`unknown check kind "${spec.kind}"`) };
  try {
    return { ...base, ...(await withDeadline(ctx.timeoutMs, (signal) => PROBES[spec.kind](spec, ctx, signal))) };
  } catch (err) {
    if (err instanceof ProbeTimeout) return { ...base, ...failing(timedOutText(ctx.timeoutMs)) };
    const code = (err as NodeJS.ErrnoException | null)?.code;
    return { ...base, ...failing(plainErrorText({ code }, FAILED[spec.kind]), rawErrorText(err)) };
  }
}
