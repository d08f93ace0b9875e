import { connectTcp, plainErrorText, rawErrorText, timedOutText } from '../probe';
import { resolveTarget } from './targets';
import { type CheckSpec, failing, type ProbeContext, type ProbeOutcome } from './types';

const DEFAULT_PORT = 22;

/** A tcp check: the target's vetted address accepts a connection on the port (22 when none is set). */
export async function probeTcpCheck(spec: CheckSpec, ctx: ProbeContext): Promise<ProbeOutcome> {
  const target = await resolveTarget(spec.target, ctx.policy, ctx.lookup);
  if (!target.ok) return failing(target.reason, target.detail);
  const r = await connectTcp(target.address, spec.port ?? DEFAULT_PORT, ctx.timeoutMs);
  if (r.connected) return { status: 'ok', latencyMs: r.latencyMs, error: null, detail: null };
  if (!r.error) return failing(timedOutText(ctx.timeoutMs));
  return failing(plainErrorText(r.error, 'connection failed'), rawErrorText(r.error));
}
