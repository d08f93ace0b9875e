import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { getCookie } from 'hono/cookie';
import { clearSessionCookie, sessionCookieName } from '../http/session';
import { revokeSession } from './sessions';
import { hashToken } from './tokens';
import { SignOutPage } from './views/SignOutPage';

type C = Context<AppEnv>;

/** Ends the current session (if any, a sign-in waiting for its two-factor code too), clears the cookie, and goes home. */
export async function signOut(c: C) {
  const token = getCookie(c, sessionCookieName(c.var.deps.config.secureCookies));
  const sid = c.var.sessionId ?? (token ? hashToken(token) : null);
  if (sid) await revokeSession(c.var.deps.db, sid);
  clearSessionCookie(c);
  return c.redirect('/', 303);
}

/** True when the browser says the request came from our own pages: Sec-Fetch-Site, else Origin, else Referer. */
export function isSameOriginRequest(c: C): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site) return site === 'same-origin';
  const appOrigin = c.var.deps.config.appOrigin;
  const origin = c.req.header('origin');
  if (origin) return origin === appOrigin;
  try {
    return new URL(c.req.header('referer') ?? '').origin === appOrigin;
  } catch {
    return false;
  }
}

/**
 * GET /api/logout (spec: a plain navigation). Signs out only a same-origin navigation; from anywhere else
 * (a cross-site link or image) it shows a "Sign out" button that posts, so other sites cannot sign users out.
 */
export async function logoutNavigation(c: C) {
  if (!c.var.sessionId || isSameOriginRequest(c)) return signOut(c);
  return c.render(<SignOutPage />, { title: 'Sign Out', bare: true });
}
