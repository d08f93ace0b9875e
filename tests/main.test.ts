import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/browser';

const root = path.resolve(import.meta.dirname, '..');

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', JOBS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  listening.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, listening, exited, output: () => output };
}

describe('main', () => {
  it('serves on the embedded database, then exits 0 on SIGTERM within 10 s', async () => {
    const port = await freePort();
    const app = startMain({ PORT: String(port), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-main-')) });
    await app.listening;
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(res.status).toBe(200);
    const started = Date.now();
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('on SIGTERM finishes the request in flight with Connection: close, closes idle keep-alive connections at once, exits 0 in < 3 s', async () => {
    const port = await freePort();
    const app = startMain({ PORT: String(port), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-main-')) });
    await app.listening;
    const busy = await keepAliveConnection(port);
    const idle = await keepAliveConnection(port);
    const idleClosed = new Promise<number>((r) => idle.socket.once('close', () => r(Date.now())));

    // A request in flight: its body arrives in two parts, SIGTERM in between.
    const body = 'email=nobody%40example.com&password=wrong-password';
    busy.socket.write(
      `POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const stoppedAt = Date.now();
    app.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    busy.socket.write(body.slice(10));
    const response = await busy.nextResponse();
    const busyClosed = await busy.closed;

    expect(response).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(busyClosed - stoppedAt).toBeLessThan(3_000);
    expect((await idleClosed) - stoppedAt).toBeLessThan(1_000);
    expect(await app.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
  }, 60_000);

  it('refuses to start on a bad variable with one line naming it', async () => {
    const app = startMain({ PORT: 'not-a-port' });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain('Invalid configuration: PORT');
    expect(app.output()).not.toContain('    at ');
  }, 30_000);
});

/** A raw HTTP/1.1 connection that has answered one GET /healthz and stays open (keep-alive). */
async function keepAliveConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (d: Buffer) => {
    received = Buffer.concat([received, d]);
    waiting?.();
  });
  const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
  /** The next complete response (headers and Content-Length body), removed from the buffer. */
  const nextResponse = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return false;
        const length = Number(/content-length: (\d+)/i.exec(received.subarray(0, end).toString())?.[1] ?? 0);
        if (received.length < end + 4 + length) return false;
        const response = received.subarray(0, end + 4 + length).toString();
        received = received.subarray(end + 4 + length);
        waiting = undefined;
        resolve(response);
        return true;
      };
      waiting = check;
      socket.once('close', () => check() || reject(new Error(`closed before a response: ${received.toString()}`)));
      check();
    });
  socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  expect(await nextResponse()).toMatch(/^HTTP\/1\.1 200/);
  return { socket, closed, nextResponse };
}
