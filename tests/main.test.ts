import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client';
import { createLogger, logFormatFor, prettyLine } from '../src/http/logger';
import { freePort } from './helpers/browser';
import { startMain } from './helpers/processes';
import { createSignedInUser } from './helpers/users';

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
    // Off a terminal (this pipe), without LOG_FORMAT, the log is JSON lines (issue 20), first-start notice included.
    const entries = app
      .output()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.find((e) => e.msg.startsWith('Ops Hub listening'))?.level).toBe(30);
    expect(entries.find((e) => e.msg.includes('the first account to register becomes the admin'))?.level).toBe(30);
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

describe('the start-up log (issue 20)', () => {
  const FIRST_START = 'the first account to register becomes the admin';
  const PRETTY_LINE = /^\d{2}:\d{2}:\d{2} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/;

  /** Starts main on `dataDir`, stops it once it listens; returns everything it printed, and its port. */
  async function startAndStop(
    env: Record<string, string>,
    dataDir = mkdtempSync(path.join(tmpdir(), 'opshub-main-')),
  ): Promise<{ output: string; port: number }> {
    const port = await freePort();
    const app = startMain({ PORT: String(port), DATA_DIR: dataDir, ...env });
    await app.listening;
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    return { output: app.output(), port };
  }

  it('LOG_FORMAT=pretty: readable lines; the first start says the first account becomes the admin, later ones do not', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'opshub-main-'));
    const first = await startAndStop({ LOG_FORMAT: 'pretty' }, dataDir);
    const output = first.output.replaceAll(String(first.port), 'PORT');
    const lines = output.split('\n').filter(Boolean);
    expect(lines.filter((l) => !PRETTY_LINE.test(l))).toEqual([]);
    expect(output).toMatch(
      /^\d{2}:\d{2}:\d{2} INFO {2}Ops Hub listening on http:\/\/127\.0\.0\.1:PORT url=http:\/\/localhost:PORT port=PORT database=pglite jobs=off$/m,
    );
    expect(output).toContain(
      `INFO  No accounts yet: ${FIRST_START}. Open http://localhost:PORT/register to create it. SMTP_URL is not set, so its verification link will be logged here.`,
    );

    const database = await openPglite(dataDir);
    await createSignedInUser(database.db, { role: 'admin' });
    await database.close();
    const later = await startAndStop({ LOG_FORMAT: 'pretty' }, dataDir);
    expect(later.output).toContain('INFO  Ops Hub listening');
    expect(later.output).not.toContain(FIRST_START);
  }, 90_000);

  it('pretty is the default on a terminal only; an entry reads time, level, message, fields, then the error stack', () => {
    expect(logFormatFor(undefined, { write: () => true, isTTY: true })).toBe('pretty');
    expect(logFormatFor(undefined, { write: () => true })).toBe('json');
    expect(logFormatFor('json', { write: () => true, isTTY: true })).toBe('json');

    const written: string[] = [];
    const logger = createLogger('info', { format: 'pretty', out: { write: (l: string) => written.push(l) } });
    logger.warn({ job: 'health-report', servers: 3, note: 'two words', token: 'secret' }, 'job failed');
    logger.error({ err: new Error('boom') }, 'database close failed');
    expect(written[0]).toMatch(
      /^\d{2}:\d{2}:\d{2} WARN {2}job failed job=health-report servers=3 note="two words" token=\[redacted\]\n$/,
    );
    expect(written[1]).toMatch(/^\d{2}:\d{2}:\d{2} ERROR database close failed\n {4}Error: boom\n\s+at /);
    expect(prettyLine('not json\n')).toBe('not json\n');
  });
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
