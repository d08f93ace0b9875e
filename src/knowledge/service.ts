import { and, desc, eq, ilike, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { likeEscape } from '../db/like';
import { documents, users } from '../db/schema';
import { recordAudit } from '../audit/service';
import { conflict } from '../http/errors';
import { readableBy, readableRestricted, readsEverything } from './access';
import { getItem, lockRow, writeVersion } from './items';
import { reviewColumnsOnCreate, reviewColumnsOnUpdate, reviewFlagged, reviewOverdue } from './review-dates';
import { describeChanges } from './versions';
import { itemSaved, watchItem } from './watchers';
import { authorColumns, itemColumns, ownerColumns, owners, toItem } from './rows';
import { documentInput, type DocumentInput, type Item, type KbType, type Space } from './schemas';
import { EDITABLE_FIELDS, ITEM_TYPES, pick, SPACES, specialTemplateTypes } from './shared';
import { savedRevisionState } from '../reviews/service';
import { clearReviewFlags, retypeItemLinks, setItemServers } from '../runbooks/service';

export { getItem, isUuid, itemFor } from './items';
export { readItem, type ReadableItem } from './reading';
export { withServerLinks, withServerLinksMany } from './linked-servers';
export { listVersions, restoreVersion } from './versions';
export { markReviewed, mayMarkReviewed } from './review-dates';
export {
  isWatching,
  itemLink,
  itemSaved,
  notificationVisibleTo,
  notifyWatchers,
  readingWatchers,
  unwatchItem,
  watchItem,
  whoMayRead,
} from './watchers';
export { readableBy } from './access';
export { queueItemEvent } from './webhook-events';
export { hasNewerDraft, lockItem, publishRevision, publishedView, readerRevision, setItemState } from './revisions';
import { hasNewerDraft, publishedViews } from './revisions';
import { queueItemEvent } from './webhook-events';

export interface ListFilters {
  q?: string;
  type?: KbType;
  category?: string;
  /** 'overdue': only items that need review (date passed or flagged); 'flagged': only those a server change flagged. */
  review?: 'overdue' | 'flagged';
  limit?: number;
  /** Leave out content and formModel (list screens do not show them). */
  summary?: boolean;
  /**
   * Who reads the list: when given (even as null or undefined), restricted items this reader may not read are left
   * out of the items, totals and category counts. Every route passes it.
   */
  viewer?: Actor;
}

/** Fields an input sets on the row (undefined = keep, on update). */
function fieldsOf(input: DocumentInput) {
  return {
    ...pick(input, EDITABLE_FIELDS),
    category: input.category?.trim() || (input.category === undefined ? undefined : null),
    tags: input.tags ? [...new Set(input.tags.filter(Boolean))] : undefined,
  };
}

/** The audit event of a create or an update (knowledge.create, document.update …), in the save's transaction. */
async function recordItemEvent(
  tx: Db,
  space: Space,
  verb: 'create' | 'update',
  row: {
    id: string;
    title: string;
    version: number;
    state: string;
    visibility: string;
    publishedVersion: number | null;
  },
  actorId: string | null,
  wasPublished = false,
) {
  const entity = { actorId, entityType: SPACES[space].audit.entityType, entityId: row.id };
  await recordAudit(tx, {
    ...entity,
    action: `${SPACES[space].audit.action}.${verb}`,
    details: { title: row.title, version: row.version, state: row.state },
  });
  await queueItemEvent(tx, verb === 'create' ? 'item.created' : 'item.updated', space, row, actorId);
  // The Published switch published it (a type that needs no approval): the one publish event, as a review's is.
  if (row.state === 'published' && !wasPublished) {
    await recordAudit(tx, { ...entity, action: 'item.published', details: { version: row.version } });
    await queueItemEvent(tx, 'item.published', space, row, actorId);
  }
}

/** Creates an item at version 1 with its first version row ("Created"). */
export async function createItem(db: Db, space: Space, input: DocumentInput, actorId: string | null): Promise<Item> {
  const id = await db.transaction(async (tx) => {
    const state = await savedRevisionState(tx, space, null, input, 1);
    const [row] = await tx
      .insert(documents)
      .values({
        ...fieldsOf(input),
        ...(await reviewColumnsOnCreate(tx, space, input)),
        ...state,
        space,
        authorId: actorId,
        ownerId: actorId,
        version: 1,
      })
      .returning(itemColumns);
    await writeVersion(tx, row, actorId, 'Created');
    await recordItemEvent(tx, space, 'create', row, actorId);
    if (input.serverIds) await setItemServers(tx, space, row, input.serverIds, actorId);
    if (actorId) await watchItem(tx, row.id, actorId);
    return row.id;
  });
  return (await getItem(db, space, id))!;
}

/**
 * Updates an item: 409 when input.version is stale (nothing changes); version + 1 and a version row whose change log
 * is the author's note, or else what changed.
 */
export async function updateItem(
  db: Db,
  space: Space,
  id: string,
  input: DocumentInput,
  actorId: string | null,
): Promise<Item> {
  await db.transaction(async (tx) => {
    const current = await lockRow(tx, space, id);
    if (input.version !== undefined && input.version !== current.version) {
      throw conflict(
        `This item was changed by someone else (now version ${current.version}, your edit was based on version ${input.version}). Reload it and try again.`,
      );
    }
    const state = await savedRevisionState(tx, space, current, input, current.version + 1);
    const [row] = await tx
      .update(documents)
      .set({
        ...fieldsOf(input),
        ...reviewColumnsOnUpdate(input),
        ...state,
        version: current.version + 1,
        updatedAt: new Date(),
      })
      .where(eq(documents.id, id))
      .returning(itemColumns);
    await writeVersion(tx, row, actorId, input.changeNote || describeChanges(current, row));
    await recordItemEvent(tx, space, 'update', row, actorId, current.state === 'published');
    // Saving what readers will see is reviewing it: a linked server's changes are seen. A draft waiting for approval
    // leaves the flags on the published text until it is published (publishRevision).
    if (!hasNewerDraft(row)) await clearReviewFlags(tx, row.id);
    if (input.serverIds) await setItemServers(tx, space, row, input.serverIds, actorId);
    else if (row.templateType !== current.templateType) await retypeItemLinks(tx, space, row);
    await itemSaved(tx, space, row, actorId, 'updated');
  });
  return (await getItem(db, space, id))!;
}

function typeCondition(type: KbType | undefined): SQL | undefined {
  if (!type) return undefined;
  const templateType = ITEM_TYPES[type].templateType;
  if (templateType) return eq(documents.templateType, templateType);
  return or(isNull(documents.templateType), notInArray(documents.templateType, specialTemplateTypes));
}

/** Words of a search as a prefix tsquery ("patch serv" → patch:* & serv:*); only letters and digits reach it. */
export function prefixQuery(q: string): string | null {
  const words =
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/**
 * Search on the list screens: word-prefix full-text search over title, excerpt, tags, category and content
 * (GIN index); a search with no letters or digits falls back to a substring of the short fields.
 */
function searchCondition(q: string | undefined): SQL | undefined {
  if (!q?.trim()) return undefined;
  const ts = prefixQuery(q);
  if (ts) return sql`${documents.searchVector} @@ to_tsquery('english', ${ts})`;
  const pattern = `%${likeEscape(q.trim())}%`;
  return or(ilike(documents.title, pattern), ilike(documents.excerpt, pattern), ilike(documents.category, pattern));
}

function categoryCondition(category: string | undefined): SQL | undefined {
  if (!category) return undefined;
  if (category === 'Uncategorized') return or(isNull(documents.category), eq(documents.category, ''));
  return eq(documents.category, category);
}

/** Live items of a space, newest first, filtered by search text, type and category. */
export async function listItems(db: Db, space: Space, filters: ListFilters = {}): Promise<Item[]> {
  const columns = filters.summary
    ? { ...itemColumns, content: sql<string>`''`, formModel: sql<null>`null` }
    : itemColumns;
  const rows = await db
    .select({ ...columns, ...authorColumns })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
    .where(filterWhere(space, filters))
    .orderBy(desc(documents.updatedAt))
    .limit(filters.limit ?? 5000);
  // Readers see an item's published revision while a newer one waits for review (the editor opens the newest).
  const items = await publishedViews(db, rows.map(toItem));
  return filters.summary ? items.map((i) => ({ ...i, content: '', formModel: null })) : items;
}

/** Where a keyset walk of a space stands: the last item's creation time (as PostgreSQL wrote it, to the microsecond) and id. */
export type ItemCursor = { at: string; id: string };

/**
 * One keyset page of the live items matching the list filters, oldest first, with author and owner, as readers see
 * them (published revisions): the whole-space export walks a space with it, `limit` items in memory at a time.
 */
export async function itemsAfter(
  db: Db,
  space: Space,
  filters: ListFilters,
  after: ItemCursor | null,
  limit: number,
): Promise<{ items: Item[]; next: ItemCursor | null }> {
  const at = sql<string>`${documents.createdAt}::text`;
  const rows = await db
    .select({ ...itemColumns, ...authorColumns, ...ownerColumns, cursorAt: at })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
    .leftJoin(owners, eq(owners.id, documents.ownerId))
    .where(
      and(
        filterWhere(space, filters),
        after
          ? sql`${documents.createdAt} >= ${after.at}::timestamptz and (${documents.createdAt}, ${documents.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(documents.createdAt, documents.id)
    .limit(limit);
  const last = rows.at(-1);
  return {
    items: await publishedViews(db, rows.map(toItem)),
    next: rows.length === limit && last ? { at: last.cursorAt, id: last.id } : null,
  };
}

/** Id, title and category of the newest live items matching the filters (the category view's tree). */
export async function listTitles(
  db: Db,
  space: Space,
  filters: ListFilters & { limit: number },
): Promise<{ id: string; title: string; category: string | null }[]> {
  return db
    .select({ id: documents.id, title: documents.title, category: documents.category })
    .from(documents)
    .where(filterWhere(space, filters))
    .orderBy(desc(documents.updatedAt))
    .limit(filters.limit);
}

function reviewCondition(review: ListFilters['review']): SQL | undefined {
  if (review === 'overdue') return reviewOverdue();
  return review === 'flagged' ? reviewFlagged() : undefined;
}

function filterWhere(space: Space, filters: ListFilters): SQL | undefined {
  return and(
    eq(documents.space, space),
    isNull(documents.deletedAt),
    typeCondition(filters.type),
    categoryCondition(filters.category),
    searchCondition(filters.q),
    reviewCondition(filters.review),
    'viewer' in filters ? readableBy(filters.viewer) : undefined,
  );
}

/** Filters the document_counts counters can answer: none but a category. */
const countedByCategory = (filters: ListFilters) => !filters.q?.trim() && !filters.type && !filters.review;

/** Live items of one category ('' = Uncategorized). */
export type CategoryCount = { name: string; count: number };

/** The counters' key of a category filter: '' for Uncategorized. */
const categoryKey = (category: string) => (category === 'Uncategorized' ? '' : category);

/**
 * The kept counters of a space (and category), as category name ('' = Uncategorized) → live items. A reader who may
 * not read every item gets the live items less the restricted ones, plus the restricted ones they may read (their
 * own and those shared with them: a few index lookups, whatever the number of restricted items).
 */
async function visibleCounts(db: Db, space: Space, filters: ListFilters): Promise<CategoryCount[]> {
  const key = filters.category === undefined ? undefined : categoryKey(filters.category);
  const inCategory = key === undefined ? sql`true` : sql`c.category = ${key}`;
  const viewer = 'viewer' in filters ? filters.viewer : undefined;
  const everything = !('viewer' in filters) || readsEverything(viewer);
  // Signed out (never on a page): none of the restricted ones.
  const readable = viewer
    ? sql`(select category, count(*)::int as n from ${readableRestricted(viewer, space)} r group by 1)`
    : sql`(select ''::text as category, 0 as n where false)`;
  const rows = await queryRows<CategoryCount>(
    db,
    everything
      ? sql`select c.category as name, c.live as count from document_counts c
            where c.space = ${space} and c.live > 0 and ${inCategory} order by c.category`
      : sql`select c.category as name, (c.live - c.restricted + coalesce(r.n, 0))::int as count
            from document_counts c left join ${readable} r on r.category = c.category
            where c.space = ${space} and c.live > 0 and ${inCategory} order by c.category`,
  );
  return rows.map((r) => ({ name: r.name, count: Number(r.count) })).filter((r) => r.count > 0);
}

/** Live items per category ('' = Uncategorized) that `viewer` may read, every category (from the kept counters). */
export const visibleCategoryCounts = (db: Db, space: Space, viewer: Actor) => visibleCounts(db, space, { viewer });

/** Counts the kept counters answer for `filters`: taken from `known` (visibleCategoryCounts) when the caller has it. */
async function countedRows(db: Db, space: Space, filters: ListFilters, known?: CategoryCount[]) {
  if (!known) return visibleCounts(db, space, filters);
  if (filters.category === undefined) return known;
  const key = categoryKey(filters.category);
  return known.filter((r) => r.name === key);
}

/**
 * How many live items match the filters (from the kept counters when only a category is chosen; `known` is the
 * reader's visibleCategoryCounts when the page already read them, so they are not read twice).
 */
export async function countItems(
  db: Db,
  space: Space,
  filters: ListFilters = {},
  known?: CategoryCount[],
): Promise<number> {
  if (countedByCategory(filters))
    return (await countedRows(db, space, filters, known)).reduce((n, r) => n + r.count, 0);
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(documents).where(filterWhere(space, filters));
  return Number(row?.n ?? 0);
}

/** Item counts per category for the filters ('' = Uncategorized); from the kept counters when only a category is chosen. */
export async function categoryCounts(
  db: Db,
  space: Space,
  filters: ListFilters = {},
  known?: CategoryCount[],
): Promise<CategoryCount[]> {
  if (countedByCategory(filters)) return countedRows(db, space, filters, known);
  const name = sql<string>`coalesce(nullif(${documents.category}, ''), '')`;
  const rows = await db
    .select({ name, count: sql<number>`count(*)::int` })
    .from(documents)
    .where(filterWhere(space, filters))
    .groupBy(name);
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

/** Soft delete: sets deleted_at (versions stay restorable for admins) and records an audit event. */
export async function deleteItem(db: Db, space: Space, id: string, actorId: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockRow(tx, space, id);
    await tx.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, id));
    await recordAudit(tx, {
      actorId,
      action: `${SPACES[space].audit.action}.delete`,
      entityType: SPACES[space].audit.entityType,
      entityId: id,
      details: { title: row.title, version: row.version },
    });
    await queueItemEvent(tx, 'item.deleted', space, row, actorId);
  });
}

/** The newest knowledge items this viewer may read, with their authors. */
export async function recentKnowledge(db: Db, limit: number, viewer: Actor): Promise<Item[]> {
  return listItems(db, 'knowledge', { limit: Math.min(Math.max(1, limit), 50), viewer });
}

/** An item input checked as the API checks it: the parsed input, or the first problem in words (the import's files). */
export function checkItemInput(input: unknown): { input: DocumentInput; problem?: undefined } | { problem: string } {
  const parsed = documentInput.safeParse(input);
  return parsed.success ? { input: parsed.data } : { problem: parsed.error.issues[0].message };
}

/**
 * Which of these titles name a live item of the space that `viewer` may read, compared trimmed and without case
 * (by the database's lower()); answers the titles as given.
 */
export async function existingTitles(db: Db, space: Space, titles: string[], viewer: Actor): Promise<Set<string>> {
  if (titles.length === 0) return new Set();
  const list = sql.join(
    [...new Set(titles)].map((t) => sql`(${t}::text)`),
    sql`, `,
  );
  const rows = await queryRows<{ title: string }>(
    db,
    sql`select distinct v.t as title from (values ${list}) as v(t)
        join documents on lower(btrim(documents.title)) = lower(btrim(v.t))
        where documents.space = ${space} and documents.deleted_at is null and ${readableBy(viewer)}`,
  );
  return new Set(rows.map((r) => r.title));
}
