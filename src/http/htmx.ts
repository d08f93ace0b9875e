import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';

/**
 * An htmx request that wants a fragment. A history restore (HX-History-Restore-Request: the page was not in
 * htmx's cache) wants the whole page, so it is not one.
 */
export function isHtmx(c: Context): boolean {
  return c.req.header('HX-Request') === 'true' && c.req.header('HX-History-Restore-Request') !== 'true';
}

/** An htmx request aimed at the element with this id (HX-Target). */
export function isHtmxFor(c: Context, targetId: string): boolean {
  return isHtmx(c) && c.req.header('HX-Target') === targetId;
}

/** Answers a server-rendered fragment (no document, no shell): what htmx swaps in. */
export function fragment(c: Context, node: ReactNode, status?: ContentfulStatusCode): Response {
  return c.html(renderToString(node), status);
}
