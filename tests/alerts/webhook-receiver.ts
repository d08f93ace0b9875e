import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A webhook receiver on 127.0.0.1: records each POST; `answers` says how each path replies (200 by default). */
export interface Received {
  path: string;
  body: unknown;
}

export async function startWebhookReceiver() {
  const received: Received[] = [];
  /** Per path: status codes to answer in turn (the last repeats), or 'hang' to never answer. */
  const answers = new Map<string, (number | 'hang')[]>();
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') });
      const plan = answers.get(path) ?? [200];
      const answer = plan.length > 1 ? plan.shift()! : plan[0];
      if (answer === 'hang') return;
      res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    answers,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
