import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { findSessionUser, SESSION_DAYS } from '../auth/sessions';
import { forbidden, unauthorized } from './errors';

/** `__Host-` cookies need Secure, which plain-http deployments cannot set. */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-ops_session' : 'ops_session');

/** Loads c.var.user from the session cookie (null when signed out). */
export const sessionLoader = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const { config, db } = c.var.deps;
  const token = getCookie(c, sessionCookieName(config.secureCookies));
  const found = token ? await findSessionUser(db, token) : null;
  c.set('user', found?.user ?? null);
  c.set('sessionId', found?.sid ?? null);
  if (token && !found) deleteCookie(c, sessionCookieName(config.secureCookies), { path: '/' });
  await next();
};

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure on https. */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  const { secureCookies } = c.var.deps.config;
  setCookie(c, sessionCookieName(secureCookies), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies,
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, sessionCookieName(c.var.deps.config.secureCookies), { path: '/', secure: c.var.deps.config.secureCookies });
}

/** API guard: 401 when signed out. */
export const requireUser = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.user) throw unauthorized();
  await next();
};

/** API guard: 403 unless the user is an admin. */
export const requireAdmin = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.user) throw unauthorized();
  if (c.var.user.role !== 'admin') throw forbidden('You do not have permission to access this page.');
  await next();
};

/** Page guard: signed-out visitors go to /login and come back to the deep link afterwards. */
export const requirePageUser = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.var.user) {
    const url = new URL(c.req.url);
    return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  await next();
};
