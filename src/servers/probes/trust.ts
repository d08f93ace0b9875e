import { rootCertificates } from 'node:tls';
import type { ProbeContext } from './types';

/** The CAs https and tls checks trust: the system's, plus HEALTH_CHECK_CA_FILE's (giving `ca` replaces the defaults). */
export function trustedCas(ctx: Pick<ProbeContext, 'ca'>): string[] | undefined {
  return ctx.ca?.length ? [...rootCertificates, ...ctx.ca] : undefined;
}
