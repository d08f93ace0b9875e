import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/client';
import { apiTokens, appSettings, userPreferences, users } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import type { CurrentUser } from './schemas';
import { currentUserColumns, preferencesOrDefaults, twoFactorSetupRequired } from './sessions';
import { hashToken } from './tokens';

/** The refusals of a personal API token. */
export const BEARER_INVALID = 'Invalid, expired or revoked API token.';
export const BEARER_READ_ONLY = 'This API token is read-only.';

/** last_used_at is stamped at most once a minute per token, not on every request. */
const STAMP_AFTER_MS = 60 * 1000;
const READ_METHODS = new Set(['GET', 'HEAD']);
/** The metrics push route checks its own (metrics) tokens. */
const METRICS_PUSH = /^\/api\/servers\/[^/]+\/metrics\/?$/;

export interface TokenUser {
  user: CurrentUser;
  scope: 'read' | 'read-write';
  /** The token's row id (rate limits per token). */
  tokenId: string;
}

/**
 * The owner behind a personal token, as the session loader builds it: null unless the token is personal, not
 * revoked, not expired, and its owner's account is active.
 */
export async function findTokenUser(db: Db, token: string): Promise<TokenUser | null> {
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      scope: apiTokens.scope,
      lastUsedAt: apiTokens.lastUsedAt,
      ...currentUserColumns,
      twoFactorSetupRequired,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .leftJoin(appSettings, eq(appSettings.id, 1))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        eq(apiTokens.kind, 'personal'),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)),
        eq(users.accountStatus, 'active'),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > STAMP_AFTER_MS) {
    await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, row.tokenId));
  }
  const { tokenId, scope, lastUsedAt: _used, theme, timezone, compactView, autoSave, ...user } = row;
  const prefs = preferencesOrDefaults({ theme, timezone, compactView, autoSave });
  const held = user.twoFactorSetupRequired === true;
  return {
    user: { ...user, ...prefs, twoFactorSetupRequired: held },
    scope: scope === 'read-write' ? 'read-write' : 'read',
    tokenId,
  };
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export const bearerOf = (header: string | undefined) => (header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined);

/**
 * `Authorization: Bearer <personal token>` on the JSON API (/api/*): the request acts as the token's owner, with
 * the owner's role, limited by the token's scope (a read token gets 403 on anything but GET and HEAD). An unknown,
 * revoked or expired token is 401, except on the metrics push route, which checks its agents' tokens itself.
 * Pages (HTML) never accept a bearer token. Runs right after the session loader.
 */
export const bearerLoader = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set('tokenScope', null);
  const token = c.req.path.startsWith('/api/') ? bearerOf(c.req.header('authorization')) : undefined;
  if (!token) return next();
  const found = await findTokenUser(c.var.deps.db, token);
  if (!found) {
    if (METRICS_PUSH.test(c.req.path)) return next();
    throw unauthorized(BEARER_INVALID);
  }
  if (found.scope === 'read' && !READ_METHODS.has(c.req.method)) throw forbidden(BEARER_READ_ONLY, 'token_scope');
  c.set('user', found.user);
  c.set('sessionId', null);
  c.set('tokenScope', found.scope);
  return next();
};
