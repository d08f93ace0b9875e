import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';
import { plainErrorText } from '../probe';
import { resolveTarget } from './targets';
import { trustedCas } from './trust';
import { type CheckSpec, failing, type ProbeContext, type ProbeOutcome } from './types';

const DEFAULT_PORT = 443;
const DEFAULT_WARN_DAYS = 21;
const DAY_MS = 86_400_000;

interface Peer {
  cert: PeerCertificate;
  /** Why the certificate is not trusted for the target (code), null when it is. */
  untrusted: string | null;
  /** The raw verification error, for admins. */
  detail: string | null;
}

/**
 * A tls check: the certificate on target:port (443 by default) is trusted for the target and not about to expire:
 * warning below warnDays (21 by default) days left, failing when expired or not trusted.
 */
export async function probeTls(spec: CheckSpec, ctx: ProbeContext, signal: AbortSignal): Promise<ProbeOutcome> {
  const target = await resolveTarget(spec.target, ctx.policy, ctx.lookup);
  if (!target.ok) return failing(target.reason, target.detail);
  const name = spec.target.replace(/^\[(.*)\]$/, '$1');
  const started = performance.now();
  const peer = await handshake(
    target.address,
    spec.port ?? DEFAULT_PORT,
    isIP(name) ? target.address : name,
    ctx,
    signal,
  );
  const latencyMs = Math.round(performance.now() - started);
  return judgeCertificate(peer, ctx.now?.() ?? new Date(), spec.warnDays ?? DEFAULT_WARN_DAYS, latencyMs);
}

export function judgeCertificate(peer: Peer, now: Date, warnDays: number, latencyMs: number): ProbeOutcome {
  const validTo = new Date(peer.cert.valid_to);
  if (!peer.cert.valid_to || Number.isNaN(validTo.getTime())) return failing('no certificate', peer.detail);
  if (validTo <= now || peer.untrusted === 'CERT_HAS_EXPIRED') {
    return { ...failing(`certificate expired on ${validTo.toISOString().slice(0, 10)}`, peer.detail), latencyMs };
  }
  if (peer.untrusted) {
    return { ...failing(plainErrorText({ code: peer.untrusted }, 'certificate not trusted'), peer.detail), latencyMs };
  }
  const daysLeft = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft >= warnDays) return { status: 'ok', latencyMs, error: null, detail: null };
  const left = daysLeft === 0 ? 'less than a day' : daysLeft === 1 ? '1 day' : `${daysLeft} days`;
  return { status: 'warning', latencyMs, error: `certificate expires in ${left}`, detail: peer.cert.valid_to };
}

/** Completes a TLS handshake with address:port for the name (SNI, identity) and reads the peer's certificate. */
function handshake(address: string, port: number, name: string, ctx: ProbeContext, signal: AbortSignal): Promise<Peer> {
  return new Promise((resolve, reject) => {
    let identityError: Error | undefined;
    const socket = connect({
      host: address,
      port,
      servername: isIP(name) ? undefined : name,
      ca: trustedCas(ctx),
      // Read the certificate whatever it is; trust is judged from authorizationError.
      rejectUnauthorized: false,
      checkServerIdentity: (_host, cert) => {
        identityError = checkServerIdentity(name, cert);
        return identityError;
      },
    });
    const abort = () => socket.destroy();
    signal.addEventListener('abort', abort, { once: true });
    const finish = () => {
      signal.removeEventListener('abort', abort);
      socket.destroy();
    };
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const untrusted = socket.authorized ? null : String(socket.authorizationError ?? 'UNKNOWN');
      finish();
      resolve({ cert, untrusted, detail: untrusted && (identityError?.message ?? untrusted) });
    });
    socket.on('error', (err) => {
      finish();
      reject(err);
    });
  });
}
