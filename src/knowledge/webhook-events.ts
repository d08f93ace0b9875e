import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentVersions } from '../db/schema';
import { queueWebhookEvent } from '../webhooks/service';
import type { Space } from './schemas';
import { itemHref } from './shared';

type ItemEvent = 'item.created' | 'item.updated' | 'item.deleted' | 'item.published';

interface ItemFacts {
  id: string;
  title: string;
  version: number;
  state?: string | null;
  category?: string | null;
  tags?: string[] | null;
  visibility: string;
  /** The version readers see while a newer one is a draft or in review (null: none published). */
  publishedVersion: number | null;
}

/** What a reader sees of an item whose newer revision waits: the published version's title, category and tags. */
async function publishedFacts(tx: Db, row: ItemFacts & { publishedVersion: number }) {
  const [published] = await tx
    .select({ title: documentVersions.title, snapshot: documentVersions.snapshot })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, row.id), eq(documentVersions.version, row.publishedVersion)));
  if (!published) return null;
  const snapshot = (published.snapshot ?? {}) as { category?: string | null; tags?: string[] | null };
  return {
    title: published.title,
    version: row.publishedVersion,
    state: 'published',
    category: snapshot.category ?? null,
    tags: snapshot.tags ?? [],
    // The newest revision's number (its text is not sent): a receiver knows a draft waits.
    latestVersion: row.version,
  };
}

/**
 * Queues an item's event for outgoing webhooks, in the transaction of the change: the item's facts and its page (no
 * content: a receiver reads it through the API), as any reader may see them. A restricted item is named by its id
 * only (no title, category, tags or page: a receiver is not one of the few who may read it). While a newer revision
 * waits (a draft or in review of a published item), the published revision's facts are sent, not the draft's; when
 * that revision cannot be read, the item is named by its id only too. A deleted item has no page to link.
 */
export async function queueItemEvent(tx: Db, event: ItemEvent, space: Space, row: ItemFacts, actorId: string | null) {
  const { id, version, visibility } = row;
  const neutral = () => queueWebhookEvent(tx, event, { item: { id, space, version, visibility }, actorId });
  if (visibility !== 'everyone') return neutral();
  const waiting = row.publishedVersion !== null && row.publishedVersion !== row.version;
  const shown = waiting
    ? await publishedFacts(tx, { ...row, publishedVersion: row.publishedVersion as number })
    : { title: row.title, version, state: row.state ?? null, category: row.category ?? null, tags: row.tags ?? [] };
  if (!shown) return neutral();
  return queueWebhookEvent(tx, event, {
    item: { id, space, ...shown, visibility },
    ...(event === 'item.deleted' ? {} : { path: itemHref(space, id, shown.title) }),
    actorId,
  });
}
