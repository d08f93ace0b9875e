import { Socket } from 'node:net';

export interface ProbeResult {
  reachable: boolean;
  latencyMs: number;
  error: string | null;
}

/** The socket errors a probe meets, in plain words (the code stays in the text for the rest). */
const PLAIN_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
};

/** What went wrong, as the probe's error text: "connection refused", else "CODE: message". */
export function probeErrorText(err: NodeJS.ErrnoException): string {
  if (err.code && PLAIN_ERRORS[err.code]) return PLAIN_ERRORS[err.code];
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/** Opens a TCP connection to host:port and closes it; unreachable after timeoutMs (default 3 s). */
export function probeTcp(host: string, port: number, timeoutMs = 3000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new Socket();
    let done = false;
    const finish = (error: string | null) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ reachable: error === null, latencyMs: Math.round(performance.now() - started), error });
    };
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => finish(null));
    socket.once('timeout', () => finish(`Timed out after ${timeoutMs} ms`));
    socket.once('error', (err: NodeJS.ErrnoException) => finish(probeErrorText(err)));
    socket.connect({ host, port });
  });
}
