import { Socket } from 'node:net';

export interface ProbeResult {
  reachable: boolean;
  latencyMs: number;
  error: string | null;
}

/** The errors a probe meets, in plain words (shown to everyone; the raw text goes to admins only). */
const PLAIN_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  // TLS (https and tls checks)
  CERT_HAS_EXPIRED: 'certificate expired',
  CERT_NOT_YET_VALID: 'certificate not trusted: not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate not trusted: self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificate not trusted: unknown issuer',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted: unknown issuer',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate not trusted: unknown issuer',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate not trusted: unknown issuer',
  CERT_SIGNATURE_FAILURE: 'certificate not trusted: bad signature',
  CERT_REVOKED: 'certificate not trusted: revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate not trusted: issued for another host name',
  EPROTO: 'TLS handshake failed',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed',
  // An answer that is not HTTP (llhttp's parse errors)
  HPE_INVALID_CONSTANT: 'not an HTTP answer',
  HPE_INVALID_VERSION: 'not an HTTP answer',
  HPE_INVALID_STATUS: 'not an HTTP answer',
  HPE_INVALID_HEADER_TOKEN: 'not an HTTP answer',
};

type ErrorLike = { code?: string; message?: string };

/** The plain words for an error's code, else the fallback. */
export function plainErrorText(err: ErrorLike, fallback: string): string {
  return (err.code && PLAIN_ERRORS[err.code]) || fallback;
}

/** The raw error ("CODE: message"), for admins. */
export function rawErrorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code } = err as NodeJS.ErrnoException;
  return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
}

/** What went wrong, as the probe's error text: "connection refused", else "CODE: message". */
export function probeErrorText(err: NodeJS.ErrnoException): string {
  if (err.code && PLAIN_ERRORS[err.code]) return PLAIN_ERRORS[err.code];
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/** The text of a probe that got no answer in time. */
export const timedOutText = (timeoutMs: number) => `Timed out after ${timeoutMs} ms`;

/** How a TCP connect went: connected, or the socket error, or no answer within the timeout (error undefined). */
export type TcpConnectResult =
  | { connected: true; latencyMs: number }
  | { connected: false; latencyMs: number; error?: NodeJS.ErrnoException };

/** Opens a TCP connection to host:port and closes it at once. */
export function connectTcp(host: string, port: number, timeoutMs: number): Promise<TcpConnectResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new Socket();
    let done = false;
    const finish = (result: { connected: true } | { connected: false; error?: NodeJS.ErrnoException }) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ ...result, latencyMs: Math.round(performance.now() - started) });
    };
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => finish({ connected: true }));
    socket.once('timeout', () => finish({ connected: false }));
    socket.once('error', (error: NodeJS.ErrnoException) => finish({ connected: false, error }));
    socket.connect({ host, port });
  });
}

/** Opens a TCP connection to host:port and closes it; unreachable after timeoutMs (default 3 s). */
export async function probeTcp(host: string, port: number, timeoutMs = 3000): Promise<ProbeResult> {
  const r = await connectTcp(host, port, timeoutMs);
  if (r.connected) return { reachable: true, latencyMs: r.latencyMs, error: null };
  return {
    reachable: false,
    latencyMs: r.latencyMs,
    error: r.error ? probeErrorText(r.error) : timedOutText(timeoutMs),
  };
}
