import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';

/** How long a session lasts: the cookie's max-age and the stored session's sliding expiry (src/auth/sessions.ts). */
export const SESSION_DAYS = 30;

/** `__Host-` cookies need Secure, which plain-http deployments cannot set. */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-ops_session' : 'ops_session');

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

/** Deletes the session cookie (sign-out, deleted account). */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, sessionCookieName(c.var.deps.config.secureCookies), {
    path: '/',
    secure: c.var.deps.config.secureCookies,
  });
}
