import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { can, customGuard, DENIED_MESSAGE } from '../auth/policy';
import { BEARER_INVALID, bearerOf, findTokenUser, SETUP_REQUIRED_MESSAGE } from '../auth/service';
import { hit } from '../http/rate-limit';
import { mcpRefusal, rateLimited, TOKEN_REQUIRED } from './errors';

/** What a 401 names: a Bearer token (RFC 6750), so clients know what to send. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="Ops Hub"' };

/**
 * POST /mcp acts only with a personal API token (`Authorization: Bearer`), never a session cookie: no token or an
 * unknown, revoked or expired one is 401; an owner who owes the workspace's two-factor set-up is 403. Each token may
 * send `MCP_RATE_LIMIT` requests a minute (counted in PostgreSQL, so every process shares the count); past it, 429.
 * The request then acts as the token's owner. A read-scope token is enough: every MCP tool and resource only reads.
 */
export const tokenGuard = (): MiddlewareHandler<AppEnv> =>
  customGuard('app.use', async (c, next) => {
    const { config, db } = c.var.deps;
    const token = bearerOf(c.req.header('authorization'));
    if (!token) return mcpRefusal(401, TOKEN_REQUIRED, CHALLENGE);
    const found = await findTokenUser(db, token);
    if (!found) return mcpRefusal(401, BEARER_INVALID, CHALLENGE);
    if (found.user.twoFactorSetupRequired) return mcpRefusal(403, SETUP_REQUIRED_MESSAGE);
    if (!can(found.user, 'app.use')) return mcpRefusal(403, DENIED_MESSAGE);
    const verdict = await hit(db, `mcp:token:${found.tokenId}`, { limit: config.mcpRateLimit, windowSeconds: 60 });
    if (!verdict.allowed) return rateLimited(config.mcpRateLimit, verdict.retryAfter);
    c.set('user', found.user);
    c.set('sessionId', null);
    c.set('tokenScope', found.scope);
    await next();
  });
