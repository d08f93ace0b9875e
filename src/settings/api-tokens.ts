import { and, desc, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { generateToken, hashToken } from '../auth/service';
import type { Db } from '../db/client';
import { apiTokens } from '../db/schema';
import { notFound } from '../http/errors';

/**
 * Personal API tokens (Settings › API tokens, /api/me/tokens): a user's own tokens, each acting as its owner
 * (src/auth/bearer.ts) with a scope. The plain token is shown once; only its sha256 is stored.
 */

/** Secret scanners find leaked tokens by this prefix (agents' metrics tokens start with ops_). */
export const PERSONAL_TOKEN_PREFIX = 'ohp_';
export const TOKEN_SCOPES = ['read', 'read-write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The expiry choices, in days (none: the token lives until revoked). */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export type TokenExpiryDays = (typeof TOKEN_EXPIRY_DAYS)[number];

export interface PersonalToken {
  id: string;
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface NewPersonalToken {
  name: string;
  scope: TokenScope;
  expiresInDays?: TokenExpiryDays | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toToken = (r: typeof apiTokens.$inferSelect): PersonalToken => ({
  id: r.id,
  name: r.name,
  scope: r.scope === 'read-write' ? 'read-write' : 'read',
  createdAt: r.createdAt.toISOString(),
  expiresAt: iso(r.expiresAt),
  lastUsedAt: iso(r.lastUsedAt),
});

/** One user's live personal tokens: `isNull(revokedAt)` keeps revoked ones out. */
const ownLive = (userId: string) =>
  and(eq(apiTokens.kind, 'personal'), eq(apiTokens.createdBy, userId), isNull(apiTokens.revokedAt));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** createPersonalToken in one transaction: the change and its audit event are stored together or not at all. */
export const createPersonalToken = (
  db: Db,
  userId: string,
  input: NewPersonalToken,
): Promise<PersonalToken & { token: string }> => db.transaction((tx) => createPersonalTokenInTx(tx, userId, input));

/** Creates a personal token for its owner; the answer carries the plain token, the only time it is seen. */
async function createPersonalTokenInTx(
  db: Db,
  userId: string,
  input: NewPersonalToken,
): Promise<PersonalToken & { token: string }> {
  const token = `${PERSONAL_TOKEN_PREFIX}${generateToken()}`;
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  const [row] = await db
    .insert(apiTokens)
    .values({
      name: input.name,
      kind: 'personal',
      scope: input.scope,
      expiresAt,
      tokenHash: hashToken(token),
      createdBy: userId,
    })
    .returning();
  await recordAudit(db, {
    actorId: userId,
    action: 'api_token.create',
    entityType: 'api_token',
    entityId: row.id,
    details: { name: input.name, kind: 'personal', scope: input.scope, expiresAt: iso(expiresAt) },
  });
  return { ...toToken(row), token };
}

/** The user's own live tokens (never the secret), newest first; expired ones stay listed until revoked. */
export async function listPersonalTokens(db: Db, userId: string): Promise<PersonalToken[]> {
  const rows = await db.select().from(apiTokens).where(ownLive(userId)).orderBy(desc(apiTokens.createdAt));
  return rows.map(toToken);
}

/** revokePersonalToken in one transaction: the change and its audit event are stored together or not at all. */
export const revokePersonalToken = (db: Db, userId: string, id: string): Promise<void> =>
  db.transaction((tx) => revokePersonalTokenInTx(tx, userId, id));

/** Revokes one of the user's own tokens; another user's (or an unknown, or a revoked) id is 404. */
async function revokePersonalTokenInTx(db: Db, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound('Token not found.');
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), ownLive(userId)))
    .returning();
  if (!row) throw notFound('Token not found.');
  await recordAudit(db, {
    actorId: userId,
    action: 'api_token.revoke',
    entityType: 'api_token',
    entityId: id,
    details: { name: row.name, kind: 'personal' },
  });
}
