import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { displayNameOf, generateToken, hashToken } from '../auth/service';
import type { Db } from '../db/client';
import { documents, documentShares, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { liveShare } from './access';
import { getItem } from './items';
import type { Item, Space } from './schemas';
import { shareLinkPath, SPACES, type ItemShare, type SharePermission } from './shared';

/**
 * An item's shares: with a user (read or write) and share links (a random token, read-only, optional expiry). A
 * link's token is shown once; only its sha256 is kept, so the table cannot open anything.
 */

/** The item a share belongs to (what the routes loaded and authorised). */
export interface SharedItem {
  id: string;
  space: Space;
  title: string;
}

/** A token is 32 random bytes as base64url: anything else is not looked up at all. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const live = () => liveShare('document_shares');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** Audit-logs a sharing change of the item (`knowledge.share`, `document.visibility` …). */
export const auditItem = (db: Db, item: SharedItem, actorId: string, verb: string, details: Record<string, unknown>) =>
  recordAudit(db, {
    actorId,
    action: `${SPACES[item.space].audit.action}.${verb}`,
    entityType: SPACES[item.space].audit.entityType,
    entityId: item.id,
    details: { title: item.title, ...details },
  });

/** The item's live shares (not revoked, not expired), people first, newest first. */
export async function listShares(db: Db, itemId: string): Promise<ItemShare[]> {
  const rows = await db
    .select({
      id: documentShares.id,
      permission: documentShares.permission,
      expiresAt: documentShares.expiresAt,
      lastOpenedAt: documentShares.lastOpenedAt,
      createdAt: documentShares.createdAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(documentShares)
    .leftJoin(users, eq(users.id, documentShares.sharedWithUserId))
    .where(and(eq(documentShares.documentId, itemId), live()))
    .orderBy(asc(sql`${documentShares.sharedWithUserId} is null`), desc(documentShares.createdAt));
  return rows.map((r) => ({
    id: r.id,
    user: r.userId && r.email ? { id: r.userId, name: displayNameOf({ ...r, email: r.email }), email: r.email } : null,
    permission: r.permission,
    expiresAt: iso(r.expiresAt),
    lastOpenedAt: iso(r.lastOpenedAt),
    createdAt: iso(r.createdAt)!,
  }));
}

/** Shares the item with an active user (a live share of theirs takes the new permission). */
export async function shareWithUser(
  db: Db,
  item: SharedItem,
  actorId: string,
  input: { userId: string; permission: SharePermission },
): Promise<ItemShare> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, input.userId), eq(users.accountStatus, 'active')));
  if (!user) throw badRequest('That user does not exist or is not active.');
  const id = await db.transaction(async (tx) => {
    const mine = and(eq(documentShares.documentId, item.id), eq(documentShares.sharedWithUserId, user.id), live());
    const [kept] = await tx
      .update(documentShares)
      .set({ permission: input.permission, sharedByUserId: actorId })
      .where(mine)
      .returning({ id: documentShares.id });
    const shareId =
      kept?.id ??
      (
        await tx
          .insert(documentShares)
          .values({
            documentId: item.id,
            sharedByUserId: actorId,
            sharedWithUserId: user.id,
            permission: input.permission,
          })
          .returning({ id: documentShares.id })
      )[0].id;
    await auditItem(tx, item, actorId, 'share', { shareId, userId: user.id, permission: input.permission });
    return shareId;
  });
  return (await listShares(db, item.id)).find((s) => s.id === id)!;
}

/** A new read-only share link; its address (appUrl + /s/{token}) is in the answer once and never again. */
export async function createShareLink(
  db: Db,
  item: SharedItem,
  actorId: string,
  expiresAt: Date | null,
  appUrl: string,
): Promise<ItemShare> {
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt must be in the future.');
  const token = generateToken();
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(documentShares)
      .values({ documentId: item.id, sharedByUserId: actorId, shareToken: hashToken(token), expiresAt })
      .returning();
    await auditItem(tx, item, actorId, 'share', { shareId: created.id, link: true, expiresAt: iso(expiresAt) });
    return created;
  });
  return {
    id: row.id,
    user: null,
    permission: 'read',
    expiresAt: iso(row.expiresAt),
    lastOpenedAt: null,
    createdAt: iso(row.createdAt)!,
    url: `${appUrl}${shareLinkPath(token)}`,
  };
}

/** Revokes one live share of the item (404 when it has no such share). */
export async function revokeShare(db: Db, item: SharedItem, shareId: string, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(documentShares)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(documentShares.id, shareId), eq(documentShares.documentId, item.id), isNull(documentShares.revokedAt)),
      )
      .returning({ userId: documentShares.sharedWithUserId });
    if (!revoked) throw notFound('Share not found.');
    await auditItem(tx, item, actorId, 'unshare', {
      shareId,
      ...(revoked.userId ? { userId: revoked.userId } : { link: true }),
    });
  });
}

/**
 * The live item a share link opens, or null for an unknown, expired or revoked token or a deleted item (the caller
 * answers 404 alike). Records when the link was opened.
 */
export async function openShareLink(db: Db, token: string): Promise<Item | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [share] = await db
    .update(documentShares)
    .set({ lastOpenedAt: new Date() })
    .where(
      and(
        eq(documentShares.shareToken, hashToken(token)),
        live(),
        sql`exists (select 1 from ${documents} d where d.id = ${documentShares.documentId} and d.deleted_at is null)`,
      ),
    )
    .returning({ documentId: documentShares.documentId });
  if (!share) return null;
  const [row] = await db.select({ space: documents.space }).from(documents).where(eq(documents.id, share.documentId));
  return row ? getItem(db, row.space, share.documentId) : null;
}
