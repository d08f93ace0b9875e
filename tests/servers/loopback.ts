import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A loopback listener that answers every connection (and closes it). */
export async function openPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((socket) => socket.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A loopback port nothing listens on (opened, then closed): a probe there is refused. */
export async function closedPort(): Promise<number> {
  const { port, close } = await openPort();
  await close();
  return port;
}

/**
 * A silent host: a loopback listener in a process that never accepts (its only thread is blocked). Once its
 * accept queue is full (two connections, held here), a connection attempt gets no answer and the probe times out.
 */
export async function silentPort(host = '127.0.0.1'): Promise<{ port: number; close: () => void }> {
  const script = `const s = require('net').createServer();
s.listen({ port: 0, host: ${JSON.stringify(host)}, backlog: 1 }, () => {
  process.stdout.write(s.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('error', reject);
  });
  const fill = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, host, () => resolve(socket));
      socket.once('error', reject);
    });
  const held = [await fill(), await fill()];
  return {
    port,
    close: () => {
      for (const socket of held) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}

/** A loopback listener counting the connections it accepts (closes each at once); close `server` when done. */
export async function countingListener(
  host = '127.0.0.1',
): Promise<{ port: number; accepted: () => number; server: Server }> {
  let n = 0;
  const server = createServer((socket) => {
    n++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { port: (server.address() as AddressInfo).port, accepted: () => n, server };
}
