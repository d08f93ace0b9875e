import { gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

/** Bodies smaller than this go out as they are: gzip would save a few hundred bytes at most. */
const THRESHOLD = 1024;
/** Level 4 deflates a page in half the time of the default 6 for about 3 % more bytes. */
const LEVEL = 4;
const noTransform = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const acceptsGzip = (header: string | undefined) =>
  !!header && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(header);

/**
 * Gzips compressible responses in one synchronous call. Every such body here is a whole string in
 * memory (pages, fragments, JSON); hono/compress pipes each one through its own zlib stream, which costs
 * far more than deflating a few KiB, and it compresses even a 2-byte `[]` (a string body has no
 * Content-Length for its threshold). Streams (Server-Sent Events) are not compressible types and pass
 * untouched, as do bodies that already carry a Content-Encoding (precompressed assets, the server list).
 */
export const compressResponses = (): MiddlewareHandler => async (c, next) => {
  await next();
  const res = c.res;
  const type = res.headers.get('Content-Type');
  if (c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return;
  if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) || res.headers.has('Content-Encoding')) return;
  if (noTransform.test(res.headers.get('Cache-Control') ?? '')) return;
  const vary = res.headers.get('Vary');
  if (!vary) res.headers.set('Vary', 'Accept-Encoding');
  else if (vary !== '*' && !/accept-encoding/i.test(vary)) res.headers.set('Vary', `${vary}, Accept-Encoding`);
  if (!acceptsGzip(c.req.header('Accept-Encoding'))) return;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  if (body.byteLength >= THRESHOLD) {
    headers.set('Content-Encoding', 'gzip');
    headers.delete('Content-Length');
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  }
  replaceResponse(
    c,
    new Response(body.byteLength >= THRESHOLD ? gzipSync(body, { level: LEVEL }) : body, {
      status: res.status,
      headers,
    }),
  );
};

/**
 * A rendered page as the response, gzipped right here when the client takes gzip: made from the string the
 * renderer just produced, so compressResponses has no body to read back (reading a response's body copies it
 * through a stream first, which for a large page costs more than deflating it).
 */
export function htmlPage(c: Context, html: string, gzipped?: Uint8Array<ArrayBuffer>): Response {
  c.header('Vary', 'Accept-Encoding', { append: true });
  if (c.req.method === 'HEAD' || html.length < THRESHOLD || !acceptsGzip(c.req.header('Accept-Encoding')))
    return c.html(html);
  c.header('Content-Encoding', 'gzip');
  c.header('Content-Type', 'text/html; charset=UTF-8');
  return c.body(gzipped ?? gzipPage(html));
}

/** A page deflated as htmlPage sends it (for a page kept to be sent again). */
export const gzipPage = (html: string): Uint8Array<ArrayBuffer> => gzipSync(html, { level: LEVEL });

/**
 * Hono's `c.res = …` merges the old headers in and re-wraps the new body as a stream (which sends it down
 * the server's slow streaming path). `headers` above already holds every header, so the old response is
 * dropped first and the byte body stays a plain buffer.
 */
function replaceResponse(c: Context, res: Response) {
  c.res = undefined;
  c.res = res;
}
