import { and, eq, or } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { documents, documentVersions } from '../db/schema';
import type { ItemState } from '../db/schema/values';
import { clearReviewFlags } from '../runbooks/service';
import { mayItem } from './item-access';
import { lockRow, writeVersion } from './items';
import { itemColumns, type ItemRow } from './rows';
import type { Item, Space } from './schemas';
import { SNAPSHOT_FIELDS } from './shared';

/**
 * The published and the newest revision of an item (issue 22): the row holds the newest; readers see the version
 * at publishedVersion while a newer one is a draft or in review. The review workflow moves an item between states
 * through these (it owns no item table).
 */

/** The live item's row, locked for the transaction (404 when absent): one decision at a time per item. */
export const lockItem = (db: Db, space: Space, id: string) => lockRow(db, space, id);

/** Sets the workflow state of the newest revision (send for review, changes requested); no new version. */
export async function setItemState(db: Db, id: string, state: Exclude<ItemState, 'published'>): Promise<void> {
  await db.update(documents).set({ state, isPublished: false }).where(eq(documents.id, id));
}

/**
 * Publishes the newest revision: one new version (the approved text, `changeLog` naming who approved it) that is
 * now what readers see. Call it in the transaction that locked the row.
 */
export async function publishRevision(db: Db, current: ItemRow, actorId: string, changeLog: string): Promise<ItemRow> {
  const version = current.version + 1;
  const [row] = await db
    .update(documents)
    .set({ version, state: 'published', isPublished: true, publishedVersion: version, updatedAt: new Date() })
    .where(eq(documents.id, current.id))
    .returning(itemColumns);
  await writeVersion(db, row, actorId, changeLog);
  // Readers now see the reviewed text: the linked servers' changes it answered are seen.
  await clearReviewFlags(db, row.id);
  return row;
}

/** Does a newer revision than the published one exist (a draft or in review)? */
export const hasNewerDraft = (item: Pick<Item, 'version' | 'publishedVersion'>) =>
  item.publishedVersion !== null && item.publishedVersion !== item.version;

type PublishedRow = { title: string; content: string; snapshot: unknown };

/** The item with a published version's title, content and snapshot fields: published, at that version. */
function withPublished(item: Item, published: PublishedRow): Item {
  const snapshot = (published.snapshot ?? {}) as Partial<Record<(typeof SNAPSHOT_FIELDS)[number], unknown>>;
  const fields = Object.fromEntries(
    SNAPSHOT_FIELDS.filter((k) => k !== 'isPublished' && k in snapshot).map((k) => [k, snapshot[k]]),
  );
  return {
    ...item,
    ...fields,
    title: published.title,
    content: published.content,
    version: item.publishedVersion!,
    // This is the published revision: spec clients that filter on isPublished keep seeing the item.
    state: 'published',
    isPublished: true,
  };
}

/**
 * The item as readers see it: the published revision's title, content and fields when a newer one is a draft or in
 * review (its version is then the published one); the item itself otherwise.
 */
export async function publishedView(db: Db, item: Item): Promise<Item> {
  return (await publishedViews(db, [item]))[0];
}

/** publishedView for a list of items, with one query for those whose newer revision waits. */
export async function publishedViews(db: Db, items: Item[]): Promise<Item[]> {
  const waiting = items.filter(hasNewerDraft);
  if (!waiting.length) return items;
  const rows = await db
    .select({
      documentId: documentVersions.documentId,
      title: documentVersions.title,
      content: documentVersions.content,
      snapshot: documentVersions.snapshot,
    })
    .from(documentVersions)
    .where(
      or(
        ...waiting.map((i) =>
          and(eq(documentVersions.documentId, i.id), eq(documentVersions.version, i.publishedVersion!)),
        ),
      ),
    );
  const published = new Map(rows.map((r) => [r.documentId, r]));
  return items.map((item) => {
    const row = hasNewerDraft(item) ? published.get(item.id) : undefined;
    return row ? withPublished(item, row) : item;
  });
}

/** Those who may edit an item or review it may open its draft revision. */
export async function mayOpenDraft(db: Db, user: Actor, item: Item): Promise<boolean> {
  return (await mayItem(db, user, item, 'item.write')) || (await mayItem(db, user, item, 'item.review'));
}

/**
 * The item a GET answers: the published revision while a newer one waits (`latestVersion` then names the newest),
 * or, with `?revision=draft` for those who may edit or review it, the newest.
 */
export async function readerRevision(
  db: Db,
  user: Actor,
  newest: Item,
  draft: boolean,
): Promise<Item & { latestVersion: number }> {
  const shown =
    !hasNewerDraft(newest) || (draft && (await mayOpenDraft(db, user, newest)))
      ? newest
      : await publishedView(db, newest);
  return { ...shown, latestVersion: newest.version };
}
