import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { compressResponses, htmlPage } from '../../src/http/compress';

const page = `<!doctype html><p>${'Ops Hub '.repeat(400)}</p>`;

function app() {
  const a = new Hono();
  a.use(compressResponses());
  a.get('/page', (c) => c.html(page));
  a.get('/rendered', (c) => {
    c.header('Vary', 'HX-Request');
    return htmlPage(c, page);
  });
  a.get('/rendered-small', (c) => htmlPage(c, '<p>small</p>'));
  a.get('/tiny', (c) => c.json([]));
  a.get('/tagged', (c) => {
    c.header('ETag', '"v1"');
    return c.html(page);
  });
  a.get('/no-transform', (c) => {
    c.header('Cache-Control', 'no-transform');
    return c.html(page);
  });
  a.get('/precompressed', (c) =>
    c.body('already', 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }),
  );
  a.get('/image', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
  a.get('/events', () => {
    const encoder = new TextEncoder();
    let release: () => void = () => {};
    const later = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('data: first\n\n'));
        await later;
        controller.enqueue(encoder.encode('data: last\n\n'));
        controller.close();
      },
    });
    setTimeout(release, 200);
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
  });
  return a;
}

const gzip = { 'Accept-Encoding': 'gzip, deflate, br' };

describe('compressResponses', () => {
  it('gzips a page for a client that accepts gzip, and says it varies by Accept-Encoding', async () => {
    const res = await app().request('/page', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeLessThan(page.length / 10);
    expect(gunzipSync(body).toString()).toBe(page);
  });

  it('sends the page as it is to a client that does not accept gzip (or refuses it with q=0)', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'br' }, { 'Accept-Encoding': 'gzip;q=0, br' }] as Record<
      string,
      string
    >[]) {
      const res = await app().request('/page', { headers });
      expect(res.headers.get('content-encoding'), JSON.stringify(headers)).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.text()).toBe(page);
    }
  });

  it('leaves bodies under 1 KiB uncompressed', async () => {
    const res = await app().request('/tiny', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual([]);
  });

  it('weakens a strong ETag on the compressed copy', async () => {
    const res = await app().request('/tagged', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toBe('W/"v1"');
  });

  it('leaves alone no-transform, already encoded and binary responses', async () => {
    for (const path of ['/no-transform', '/precompressed', '/image']) {
      const res = await app().request(path, { headers: gzip });
      expect(res.headers.get('content-encoding'), path).toBe(path === '/precompressed' ? 'br' : null);
    }
  });

  it('gzips a rendered page where it is made, keeping the headers set before and varying by Accept-Encoding', async () => {
    const res = await app().request('/rendered', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('vary')).toBe('HX-Request, Accept-Encoding');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(page);
    for (const [path, init] of [
      ['/rendered', {}],
      ['/rendered-small', { headers: gzip }],
      ['/rendered', { method: 'HEAD', headers: gzip }],
    ] as const) {
      const plain = await app().request(path, init);
      expect(plain.headers.get('content-encoding'), `${path} ${JSON.stringify(init)}`).toBeNull();
      expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    }
  });

  it('passes an event stream through unbuffered: the first event arrives before the stream ends', async () => {
    const res = await app().request('/events', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.getReader();
    const started = Date.now();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    expect(Date.now() - started).toBeLessThan(150);
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest.value)).toBe('data: last\n\n');
  });
});
