import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests from other origins, JSON bodies included (hono/csrf skips those).
 * A request with neither Origin nor Referer is let through only when it carries no session cookie
 * (nothing to forge: scripts, agents with a Bearer token). A Bearer request without a session cookie passes
 * whatever its origin: browsers never add that header by themselves, so a forged request would need the token.
 */
export const csrfGuard =
  (appOrigin: string, sessionCookieName: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const hasSession = (c.req.header('cookie') ?? '').includes(`${sessionCookieName}=`);
    if (!hasSession && /^Bearer\s/i.test(c.req.header('authorization') ?? '')) return next();
    const origin = c.req.header('origin') ?? refererOrigin(c.req.header('referer'));
    if (origin) {
      if (origin !== appOrigin) throw forbidden('Cross-site request refused.', 'csrf');
      return next();
    }
    if (c.req.header('sec-fetch-site') === 'cross-site') throw forbidden('Cross-site request refused.', 'csrf');
    if (hasSession) throw forbidden('Cross-site request refused.', 'csrf');
    return next();
  };

function refererOrigin(referer?: string): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}
