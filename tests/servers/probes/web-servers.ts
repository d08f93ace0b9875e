import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { KeyPair } from './certificates';

/** A loopback web server a test starts: its port, what it saw, and how to stop it. */
export interface TestWebServer {
  port: number;
  /** Connections accepted so far. */
  connections: () => number;
  /** The Host header of every request so far. */
  hosts: string[];
  close: () => Promise<void>;
}

async function listen(server: Server, host: string, handler: RequestListener): Promise<TestWebServer> {
  const sockets = new Set<Socket>();
  const hosts: string[] = [];
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A TLS server counts the TCP connection before the handshake (a probe may reject the certificate).
  server.on('request', (req) => hosts.push(req.headers.host ?? ''));
  server.on('request', handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    hosts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An http server on a loopback address (127.0.0.1 unless given). */
export const startHttpServer = (handler: RequestListener, host = '127.0.0.1') =>
  listen(createHttpServer(), host, handler);

/** An https server with the given certificate, on a loopback address. */
export const startHttpsServer = (pair: KeyPair, handler: RequestListener, host = '127.0.0.1') =>
  listen(createHttpsServer({ key: pair.key, cert: pair.cert }), host, handler);
