import { Socket } from 'node:net';

export interface ProbeResult {
  reachable: boolean;
  latencyMs: number;
  error: string | null;
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
    socket.once('error', (err: NodeJS.ErrnoException) =>
      finish(err.code ? `${err.code}: ${err.message}` : err.message),
    );
    socket.connect({ host, port });
  });
}
