import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1 that checks what a receiver should: the signature (HMAC-SHA256 of
 * `timestamp + "." + body` under the endpoint's secret), the timestamp's age, and the delivery id, which it dedupes
 * on. Each path answers as planned (200 by default; a status, 'hang' for never, or a status after a wait);
 * `down()` closes the port (connections refused) and `up()` opens it again on the same port.
 */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: unknown;
  /** The signature matched the secret of the path (see `secrets`). */
  verified: boolean;
  at: Date;
}

/** Checks a delivery's signature as a receiver would (constant time); false when anything is missing. */
export function verifySignature(
  secret: string,
  headers: IncomingHttpHeaders,
  raw: string,
  maxAgeSeconds = 300,
): boolean {
  const timestamp = String(headers['x-opshub-timestamp'] ?? '');
  const signature = String(headers['x-opshub-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || !signature.startsWith('sha256=')) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > maxAgeSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex'));
  const given = Buffer.from(signature.slice('sha256='.length));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a path answers: a status code at once, 'hang' (never), or a status after a wait. */
export type Answer = number | 'hang' | { status: number; afterMs: number };

export async function startReceiver() {
  const received: Received[] = [];
  /** Per path: what to answer in turn (the last repeats): a status code, 'hang' to never answer, or a late one. */
  const answers = new Map<string, Answer[]>();
  /** Per path: the endpoint's secret, to verify signatures. */
  const secrets = new Map<string, string>();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const open = async () => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const raw = Buffer.concat(chunks).toString();
        const secret = secrets.get(path);
        received.push({
          path,
          headers: req.headers,
          raw,
          body: JSON.parse(raw || 'null'),
          verified: !!secret && verifySignature(secret, req.headers, raw),
          at: new Date(),
        });
        const plan = answers.get(path) ?? [200];
        const answer = plan.length > 1 ? plan.shift()! : plan[0];
        if (answer === 'hang') return;
        const [status, afterMs] = typeof answer === 'number' ? [answer, 0] : [answer.status, answer.afterMs];
        setTimeout(() => {
          if (res.destroyed) return;
          res
            .writeHead(status, { 'Content-Type': 'text/plain' })
            .end(status < 300 ? 'thanks' : `receiver says no (${status}) ${'x'.repeat(600)}`);
        }, afterMs);
      });
    });
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((r) => s.listen(port, '127.0.0.1', r));
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const close = () =>
    new Promise<void>((r) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return r();
      server.close(() => r());
      server = undefined;
    });

  await open();
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    answers,
    secrets,
    at: (path: string) => received.filter((r) => r.path === path),
    /** Delivery ids seen at a path, each once (a receiver's dedupe). */
    ids: (path: string) => [
      ...new Set(received.filter((r) => r.path === path).map((r) => String(r.headers['x-opshub-delivery']))),
    ],
    down: close,
    up: open,
    close,
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
