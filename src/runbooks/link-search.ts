/** Read model: joins knowledge (the items a reader may read, knowledge/access.ts). */
import { and, asc, eq, ilike, isNull, notExists } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { likeEscape } from '../db/like';
import { documents, serverDocuments } from '../db/schema';
import { readableBy } from '../knowledge/access';
import { linkTypeOf } from '../servers/service';

/** A document a server could be linked to: what the server page's "Link a document" search lists. */
export interface LinkCandidate {
  id: string;
  title: string;
  /** The type the link would get (its kind, or 'document'). */
  documentType: string;
}

/** How many matches the search lists (a longer title narrows it). */
export const LINK_SEARCH_LIMIT = 20;

/** Live items and documents `reader` may read whose title contains `q`, not linked to the server yet, by title. */
export async function linkCandidates(db: Db, serverId: string, reader: Actor, q: string): Promise<LinkCandidate[]> {
  const text = q.trim();
  if (!text) return [];
  const linked = db
    .select({ id: serverDocuments.documentId })
    .from(serverDocuments)
    .where(and(eq(serverDocuments.serverId, serverId), eq(serverDocuments.documentId, documents.id)));
  const rows = await db
    .select({ id: documents.id, title: documents.title, space: documents.space, templateType: documents.templateType })
    .from(documents)
    .where(
      and(
        isNull(documents.deletedAt),
        ilike(documents.title, `%${likeEscape(text)}%`),
        readableBy(reader),
        notExists(linked),
      ),
    )
    .orderBy(asc(documents.title))
    .limit(LINK_SEARCH_LIMIT);
  return rows.map((r) => ({ id: r.id, title: r.title, documentType: linkTypeOf(r) }));
}
