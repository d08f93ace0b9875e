import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/**
 * Route marks: a guard handler carries the decision it makes (a policy action, or 'public') so a test can walk
 * the mounted routes and find one before every handler. src/auth/policy.ts builds its guards on these; http/
 * itself only needs the public marker (health, static files).
 */
const marks = new WeakMap<object, string>();

/** Records `decision` on `handler` and returns the handler. */
export function markRoute<H extends MiddlewareHandler<AppEnv>>(decision: string, handler: H): H {
  marks.set(handler, decision);
  return handler;
}

/** The decision a handler was marked with (undefined for handlers that are not guards). */
export const routeMark = (handler: unknown): string | undefined =>
  typeof handler === 'function' ? marks.get(handler) : undefined;

/** Marks a route anyone may call, signed in or not (sign-in pages, health, assets). */
export const publicRoute = (): MiddlewareHandler<AppEnv> => markRoute('public', (_c, next) => next());
