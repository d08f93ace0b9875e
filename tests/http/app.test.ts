import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/http/errors';
import { gunzipSync } from 'node:zlib';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  // A throwaway route to exercise the error handler and body limit.
  t.app.post('/api/test/echo', async (c) => c.json(await c.req.json()));
  t.app.get('/api/test/boom', () => {
    throw new Error('secret internal detail');
  });
  t.app.get('/api/test/busy', () => {
    throw new AppError(503, 'The AI model is busy. Please try again later.', 'ai_busy');
  });
});
afterAll(() => t.close());

describe('health', () => {
  it('/healthz answers 200', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
  });

  it('/readyz answers 200 while the database answers, 503 when it does not', async () => {
    expect((await t.app.request('/readyz')).status).toBe(200);
    const broken = await createTestApp();
    await broken.database.close();
    const res = await broken.app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', message: 'The database does not answer.' });
  });
});

describe('secure defaults', () => {
  it('sends a CSP with self scripts only, nosniff and no framing', async () => {
    const res = await t.app.request('/');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a cross-site POST, even with a JSON body', async () => {
    const res = await t.app.request('/api/test/echo', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'csrf' });
  });

  it('refuses a POST carrying a session cookie but no Origin or Referer', async () => {
    const user = await createSignedInUser(t.db);
    const res = await t.app.request('/api/test/echo', {
      method: 'POST',
      headers: { Cookie: user.cookie, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });

  it('accepts a same-origin POST', async () => {
    const res = await t.app.request('/api/test/echo', jsonRequest('POST', { a: 1 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });

  it('answers 413 with a message for a JSON body over 5 MB', async () => {
    const big = JSON.stringify({ x: 'a'.repeat(5 * 1024 * 1024 + 10) });
    const res = await t.app.request('/api/test/echo', {
      method: 'POST',
      headers: {
        Origin: 'http://localhost:3000',
        'Content-Type': 'application/json',
        'Content-Length': String(big.length),
      },
      body: big,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/larger than 5 MB/);
  });

  it('never sends a stack trace or internal message', async () => {
    const res = await t.app.request('/api/test/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(JSON.parse(text).message).toBeTruthy();
  });
});

describe('error pages for errors raised before the page renderer', () => {
  const formPost = (headers: Record<string, string>, body = 'firstName=A') =>
    t.app.request('/settings/profile', {
      method: 'POST',
      headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('a cross-site form post gets the 403 page with its message, not [object Object]', async () => {
    const res = await formPost({ Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('Access Denied');
    expect(html).toContain('Cross-site request refused.');
    expect(html).not.toContain('[object Object]');
  });

  it('an oversized form post gets the 413 page', async () => {
    const body = `firstName=${'a'.repeat(5 * 1024 * 1024 + 10)}`;
    const res = await formPost({ Origin: TEST_ORIGIN, 'Content-Length': String(body.length) }, body);
    expect(res.status).toBe(413);
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('The request body is larger than 5 MB.');
    expect(html).not.toContain('[object Object]');
  });
});

describe('compression and caching', () => {
  it('compresses HTML on the fly', async () => {
    const res = await t.app.request('/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const html = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
    expect(html).toContain('Start Your Free Trial');
  });

  it('serves hashed build files precompressed with a one-year immutable cache', async () => {
    const manifest = t.deps.assets;
    const res = await t.app.request(manifest.boot, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it("does not serve the build's records, which name source files", async () => {
    for (const name of ['manifest.json', 'meta.json', 'meta.json.gz', 'meta.json.br', 'inputs.json']) {
      expect((await t.app.request(`/static/build/${name}`)).status, name).toBe(404);
    }
  });
});

describe('logging of failed requests', () => {
  it('logs an unexplained failure as an error, and a 5xx we answered on purpose (busy, asker gone) as a warning', async () => {
    const error = vi.spyOn(t.deps.logger, 'error');
    const warn = vi.spyOn(t.deps.logger, 'warn');
    try {
      expect((await t.app.request('/api/test/boom')).status).toBe(500);
      expect(error).toHaveBeenCalledTimes(1);
      expect((await t.app.request('/api/test/busy')).status).toBe(503);
      expect(error).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });
});
