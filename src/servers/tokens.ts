import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { generateToken, hashToken } from '../auth/service';
import type { Db } from '../db/client';
import { apiTokens, servers } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { TokenInput } from './schemas';
import { isUuid } from './service';

export interface ApiTokenInfo {
  id: string;
  name: string;
  /** The servers it may push metrics for. */
  serverIds: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Only agents' tokens are this module's: a personal token is never listed, revoked or accepted here. */
const metrics = eq(apiTokens.kind, 'metrics');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toInfo = (r: typeof apiTokens.$inferSelect): ApiTokenInfo => ({
  id: r.id,
  name: r.name,
  serverIds: r.serverIds,
  createdAt: iso(r.createdAt)!,
  lastUsedAt: iso(r.lastUsedAt),
  revokedAt: iso(r.revokedAt),
});

/** 400 unless every id names a server. */
async function checkServersExist(db: Db, ids: string[]): Promise<void> {
  const found = await db.select({ id: servers.id }).from(servers).where(inArray(servers.id, ids));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw badRequest(`No server has the id ${missing.join(', ')}.`);
}

/** createApiToken in one transaction: the change and its audit event are stored together or not at all. */
export const createApiToken = (db: Db, input: TokenInput, actorId: string): Promise<ApiTokenInfo & { token: string }> =>
  db.transaction((tx) => createApiTokenInTx(tx, input, actorId));

/**
 * Creates an agent token for some servers; the plain token is returned once, only its sha256 is stored. An agent
 * on one box can then only report for the servers it was given, never for (or hide) another.
 */
async function createApiTokenInTx(
  db: Db,
  input: TokenInput,
  actorId: string,
): Promise<ApiTokenInfo & { token: string }> {
  const serverIds = [...new Set(input.serverIds)];
  await checkServersExist(db, serverIds);
  const token = `ops_${generateToken()}`;
  const [row] = await db
    .insert(apiTokens)
    .values({ name: input.name, serverIds, kind: 'metrics', tokenHash: hashToken(token), createdBy: actorId })
    .returning();
  await recordAudit(db, {
    actorId,
    action: 'api_token.create',
    entityType: 'api_token',
    entityId: row.id,
    details: { name: input.name, serverIds },
  });
  return { ...toInfo(row), token };
}

/** Every metrics token (never the secret), newest first. */
export async function listApiTokens(db: Db): Promise<ApiTokenInfo[]> {
  return (await db.select().from(apiTokens).where(metrics).orderBy(desc(apiTokens.createdAt))).map(toInfo);
}

/** revokeApiToken in one transaction: the change and its audit event are stored together or not at all. */
export const revokeApiToken = (db: Db, id: string, actorId: string): Promise<void> =>
  db.transaction((tx) => revokeApiTokenInTx(tx, id, actorId));

/** Revokes a metrics token; revoked tokens are refused from then on. */
async function revokeApiTokenInTx(db: Db, id: string, actorId: string): Promise<void> {
  if (!isUuid(id)) throw notFound('Token not found.');
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), metrics, isNull(apiTokens.revokedAt)))
    .returning();
  if (!row) {
    const [exists] = await db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), metrics));
    if (!exists) throw notFound('Token not found.');
    return;
  }
  await recordAudit(db, {
    actorId,
    action: 'api_token.revoke',
    entityType: 'api_token',
    entityId: id,
    details: { name: row.name },
  });
}

/** The live metrics token matching a presented secret (stamps last use), or null. */
export async function verifyApiToken(db: Db, token: string): Promise<ApiTokenInfo | null> {
  const [row] = await db
    .update(apiTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), metrics, isNull(apiTokens.revokedAt)))
    .returning();
  return row ? toInfo(row) : null;
}
