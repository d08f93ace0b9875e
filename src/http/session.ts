import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { findSessionUser, SESSION_DAYS } from '../auth/sessions';
import { allow, allowPage } from '../auth/policy';

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
  deleteCookie(c, sessionCookieName(c.var.deps.config.secureCookies), {
    path: '/',
    secure: c.var.deps.config.secureCookies,
  });
}

/** API guard for any signed-in account: policy action `app.use` (401 when signed out). */
export const requireUser = (): MiddlewareHandler<AppEnv> => allow('app.use');

/** Page guard for any signed-in account: signed-out visitors go to /login and come back to the deep link. */
export const requirePageUser = (): MiddlewareHandler<AppEnv> => allowPage('app.use');
