import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentReviewFlags } from '../db/schema';
import type { ReviewFlag } from './shared';

type FlagRow = typeof documentReviewFlags.$inferSelect;

/** A stored flag as JSON. */
const toFlag = (r: FlagRow): ReviewFlag => ({
  serverId: r.serverId,
  serverName: r.serverName,
  field: r.field,
  from: r.fromValue,
  to: r.toValue,
  at: new Date(r.at).toISOString(),
  by: r.byName,
});

/** The review flags of many documents (oldest first), by document id. */
export async function reviewFlagsOfMany(db: Db, documentIds: string[]): Promise<Map<string, ReviewFlag[]>> {
  const byDocument = new Map<string, ReviewFlag[]>(documentIds.map((id) => [id, []]));
  if (!documentIds.length) return byDocument;
  const rows = await db
    .select()
    .from(documentReviewFlags)
    .where(inArray(documentReviewFlags.documentId, documentIds))
    .orderBy(asc(documentReviewFlags.at), asc(documentReviewFlags.id));
  for (const r of rows) byDocument.get(r.documentId)?.push(toFlag(r));
  return byDocument;
}

/** The review flags of one document, oldest first. */
export async function reviewFlagsOf(db: Db, documentId: string): Promise<ReviewFlag[]> {
  return (await reviewFlagsOfMany(db, [documentId])).get(documentId) ?? [];
}

/** Clears a document's flags (it was marked reviewed or edited); answers how many there were. Pass the transaction. */
export async function clearReviewFlags(db: Db, documentId: string): Promise<number> {
  const removed = await db
    .delete(documentReviewFlags)
    .where(eq(documentReviewFlags.documentId, documentId))
    .returning({ id: documentReviewFlags.id });
  return removed.length;
}
