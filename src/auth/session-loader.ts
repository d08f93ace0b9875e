import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { sessionCookieName } from '../http/session';
import { findSessionUser } from './sessions';

/**
 * Loads c.var.user from the session cookie (null when signed out); an unknown or expired cookie is deleted.
 * A sign-in still waiting for its two-factor code loads no user: only the code step reads that cookie.
 */
export const sessionLoader = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const { config, db } = c.var.deps;
  const token = getCookie(c, sessionCookieName(config.secureCookies));
  const found = token ? await findSessionUser(db, token) : null;
  c.set('user', found?.user ?? null);
  c.set('sessionId', found?.user ? found.sid : null);
  if (token && !found) deleteCookie(c, sessionCookieName(config.secureCookies), { path: '/' });
  await next();
};
