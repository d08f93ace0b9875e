/**
 * Issue 23: what a read page pays for a Servers panel. The real-size article is read as it is (no linked server) and
 * as a copy linked to 20 servers; p95 of each, measured back to back in one run, and their ratio.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { documents, serverDocuments, servers } from '../../src/db/schema';
import { itemHref } from '../../src/knowledge/shared';
import { latency } from './measure';

/** Servers the copy links. */
export const LINKED_SERVERS = 20;

/** A copy of the article (same content, same dates) linked to the first 20 servers by name; answers its read path. */
export async function seedLinkedCopy(db: Db, articleId: string): Promise<string> {
  const [source] = await db
    .select({
      space: documents.space,
      title: documents.title,
      content: documents.content,
      excerpt: documents.excerpt,
      category: documents.category,
      tags: documents.tags,
      templateType: documents.templateType,
      authorId: documents.authorId,
      isPublished: documents.isPublished,
      createdAt: documents.createdAt,
      updatedAt: documents.updatedAt,
    })
    .from(documents)
    .where(eq(documents.id, articleId));
  const [copy] = await db
    .insert(documents)
    .values({ ...source, title: `${source.title} (${LINKED_SERVERS} servers)` })
    .returning({ id: documents.id, title: documents.title });
  const picked = await db.select({ id: servers.id }).from(servers).orderBy(asc(servers.name)).limit(LINKED_SERVERS);
  await db
    .insert(serverDocuments)
    .values(picked.map((s) => ({ serverId: s.id, documentId: copy.id, documentType: 'knowledge-base' })));
  return itemHref('knowledge', copy.id, copy.title);
}

export interface LinkedServersCost {
  none: { p50: number; p95: number; failures: number };
  linked: { p50: number; p95: number; failures: number };
  /** p95 with 20 linked servers ÷ p95 with none. */
  ratio: number;
}

/**
 * p95 of the article without and with 20 linked servers, each measured twice in turns (none, linked, linked,
 * none) so drift during the run weighs on both alike; each side's p50 and p95 are the means of its two.
 */
export async function linkedServersCost(
  baseUrl: string,
  nonePath: string,
  linkedPath: string,
  headers: Record<string, string>,
): Promise<LinkedServersCost> {
  const none1 = await latency(baseUrl + nonePath, headers);
  const linked1 = await latency(baseUrl + linkedPath, headers);
  const linked2 = await latency(baseUrl + linkedPath, headers);
  const none2 = await latency(baseUrl + nonePath, headers);
  const side = (a: typeof none1, b: typeof none1) => ({
    p50: (Number(a.p50) + Number(b.p50)) / 2,
    p95: (Number(a.p95) + Number(b.p95)) / 2,
    failures: a.failures + b.failures,
  });
  const none = side(none1, none2);
  const linked = side(linked1, linked2);
  return { none, linked, ratio: linked.p95 / none.p95 };
}
