import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCheck } from '../../../src/servers/probes';
import { closedPort } from '../loopback';
import { check, fixedLookup, testContext, testPolicy } from './context';
import { startHttpServer, type TestWebServer } from './web-servers';

/** /ok, /down (503), /created (201), /hop/N (N redirects to go, relative), /to?url=U, /endless, /big, /silent. */
function routes(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
  if (hop) {
    const left = Number(hop[1]);
    if (left === 0) return res.end('arrived');
    res.writeHead(302, { location: `${left - 1}` }).end();
    return;
  }
  switch (url.pathname) {
    case '/ok':
      return res.end('<p>all systems nominal</p>');
    case '/down':
      return res.writeHead(503).end('maintenance');
    case '/created':
      return res.writeHead(201).end();
    case '/to':
      return res.writeHead(301, { location: url.searchParams.get('url') ?? '/' }).end();
    case '/endless': {
      // Starts with the text, then never ends: the check must stop reading.
      res.write('status: healthy\n');
      const timer = setInterval(() => res.write('x'.repeat(64 * 1024)), 1);
      res.once('close', () => clearInterval(timer));
      return;
    }
    case '/big':
      // The text comes only after 1.5 MB: beyond what a check reads.
      res.write('x'.repeat(1536 * 1024));
      return res.end('late marker');
    case '/silent':
      return; // never answers
    default:
      return res.writeHead(404).end();
  }
}

describe('http checks', () => {
  let web: TestWebServer;
  let other: TestWebServer;
  beforeAll(async () => {
    web = await startHttpServer(routes);
    other = await startHttpServer(routes, '127.0.0.2');
  });
  afterAll(async () => {
    await web.close();
    await other.close();
  });
  afterEach(() => vi.restoreAllMocks());

  const http = (path: string, over: Parameters<typeof check>[0] extends infer T ? Partial<T> : never = {}) =>
    check({ kind: 'http', target: '127.0.0.1', port: web.port, path, ...over });

  it('is ok on a 2xx answer, with the latency', async () => {
    const r = await runCheck(http('/ok'), testContext());
    expect(r).toMatchObject({ kind: 'http', status: 'ok', error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('GETs / when the check has no path', async () => {
    const r = await runCheck(http(''), testContext());
    expect(r.error).toBe('expected status 2xx or 3xx, got 404');
  });

  it('fails on a 503 with the status in plain words', async () => {
    const r = await runCheck(http('/down'), testContext());
    expect(r).toMatchObject({ status: 'failing', error: 'expected status 2xx or 3xx, got 503' });
  });

  it('takes exactly the expected status when it is set', async () => {
    expect((await runCheck(http('/created', { expectStatus: 201 }), testContext())).status).toBe('ok');
    expect((await runCheck(http('/ok', { expectStatus: 201 }), testContext())).error).toBe(
      'expected status 201, got 200',
    );
    expect((await runCheck(http('/down', { expectStatus: 503 }), testContext())).status).toBe('ok');
  });

  it('looks for the expected text in the body', async () => {
    expect((await runCheck(http('/ok', { expectText: 'systems nominal' }), testContext())).status).toBe('ok');
    const missing = await runCheck(http('/ok', { expectText: 'on fire' }), testContext());
    expect(missing).toMatchObject({ status: 'failing', error: 'text "on fire" not found in the body' });
  });

  it('reads at most about 1 MB of the body', async () => {
    const endless = await runCheck(http('/endless', { expectText: 'healthy' }), testContext());
    expect(endless.status).toBe('ok');
    const late = await runCheck(http('/big', { expectText: 'late marker' }), testContext());
    expect(late.error).toBe('text "late marker" not found in the body');
  });

  it('follows up to 3 redirects (relative Locations); the 4th fails', async () => {
    const three = await runCheck(http('/hop/3', { expectText: 'arrived' }), testContext());
    expect(three).toMatchObject({ status: 'ok', error: null });
    const four = await runCheck(http('/hop/4'), testContext());
    expect(four).toMatchObject({ status: 'failing', error: 'too many redirects' });
  });

  it('judges a redirect itself when the expected status is a redirect', async () => {
    const r = await runCheck(http('/hop/1', { expectStatus: 302 }), testContext());
    expect(r.status).toBe('ok');
  });

  it('vets the host of every redirect: outside the allowed networks is refused and never connected', async () => {
    const before = other.connections();
    const target = encodeURIComponent(`http://127.0.0.2:${other.port}/ok`);
    const r = await runCheck(http(`/to?url=${target}`), testContext({ policy: testPolicy('127.0.0.1/32') }));
    expect(r.status).toBe('failing');
    expect(r.error).toMatch(
      /^Refused: 127\.0\.0\.2 is outside the allowed networks .*\(redirected to 127\.0\.0\.2:\d+\)$/,
    );
    expect(other.connections()).toBe(before);
    // The same redirect where 127.0.0.2 is allowed arrives.
    expect((await runCheck(http(`/to?url=${target}`), testContext())).status).toBe('ok');
    expect(other.connections()).toBe(before + 1);
  });

  it('refuses a redirect to the cloud metadata address without connecting to it', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const r = await runCheck(
      http(`/to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`),
      testContext(),
    );
    expect(r.error).toMatch(/^Refused: 169\.254\.169\.254 is in a denied network/);
    expect(connect).toHaveBeenCalledTimes(1); // the first hop only
  });

  it('fails a redirect to something that is not http', async () => {
    const r = await runCheck(http(`/to?url=${encodeURIComponent('file:///etc/passwd')}`), testContext());
    expect(r).toMatchObject({ status: 'failing', error: 'redirected to an address that is not http or https' });
  });

  it('connects to the vetted address and sends the target name as Host', async () => {
    const lookup = fixedLookup({ 'app.test': ['127.0.0.1'] });
    const r = await runCheck(
      check({ kind: 'http', target: 'app.test', port: web.port, path: '/ok' }),
      testContext({ lookup }),
    );
    expect(r.status).toBe('ok');
    expect(lookup.asked).toEqual(['app.test']);
    expect(web.hosts.at(-1)).toBe(`app.test:${web.port}`);
  });

  it('times out, over the whole check, on a server that never answers', async () => {
    const r = await runCheck(http('/silent'), testContext({ timeoutMs: 300 }));
    expect(r).toMatchObject({ status: 'failing', error: 'Timed out after 300 ms' });
  });

  it('says plainly when nothing listens', async () => {
    const r = await runCheck(check({ kind: 'http', target: '127.0.0.1', port: await closedPort() }), testContext());
    expect(r).toMatchObject({ status: 'failing', error: 'connection refused' });
    expect(r.detail).toMatch(/ECONNREFUSED/);
  });
});
