import { and, desc, eq } from 'drizzle-orm';
import { can, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { documents, documentVersions, users } from '../db/schema';
import { recordAudit } from '../audit/service';
import { conflict, notFound } from '../http/errors';
import { authorizeItem } from './item-access';
import { getItem, isUuid, lockRow, writeVersion } from './items';
import { itemColumns, snapshotOf, type ItemRow } from './rows';
import type { Item, Space, VersionItem } from './schemas';
import { SPACES } from './shared';
import { hasNewerDraft, mayOpenDraft } from './revisions';
import { itemSaved } from './watchers';
import { queueItemEvent } from './webhook-events';
import { reviewsByVersion, savedRevisionState } from '../reviews/service';
import { clearReviewFlags } from '../runbooks/service';

/** The fields a change log names, in the order it names them. */
const LOGGED_FIELDS = [
  ['title', 'title'],
  ['excerpt', 'excerpt'],
  ['content', 'content'],
  ['formModel', 'form'],
  ['category', 'category'],
  ['tags', 'tags'],
  ['technology', 'technology'],
  ['domain', 'domain'],
  ['templateType', 'template type'],
  ['isTemplate', 'template setting'],
  ['isPublished', 'published setting'],
  ['attachedImages', 'images'],
  ['reviewIntervalDays', 'review interval'],
] as const satisfies readonly (readonly [keyof ItemRow, string])[];

/** "a", "a and b", "a, b and c". */
const listOf = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;

/** What an update changed, in words ("Changed title, content and tags"), for the version's change log. */
export function describeChanges(before: ItemRow, after: ItemRow): string {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changed = LOGGED_FIELDS.filter(([key]) => !same(before[key], after[key])).map(([, name]) => name);
  return changed.length ? `Changed ${listOf(changed)}` : 'Saved without changes';
}

function authorName(first: string | null, last: string | null, email: string | null): string {
  return [first, last].filter(Boolean).join(' ') || email || 'Unknown';
}

/**
 * Every version of an item, newest first (404 when the item is absent or the actor may not read it; a deleted one
 * only for knowledge.restore).
 */
export async function listVersions(db: Db, space: Space, id: string, actor: Actor): Promise<VersionItem[]> {
  const item = await getItem(db, space, id, { includeDeleted: can(actor, 'knowledge.restore'), viewer: actor });
  if (!item) throw notFound('Item not found.');
  const rows = await db
    .select({
      id: documentVersions.id,
      version: documentVersions.version,
      title: documentVersions.title,
      content: documentVersions.content,
      createdAt: documentVersions.createdAt,
      changeLog: documentVersions.changeLog,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(documentVersions)
    .leftJoin(users, eq(users.id, documentVersions.authorId))
    .where(eq(documentVersions.documentId, id))
    .orderBy(desc(documentVersions.version));
  const reviews = await reviewsByVersion(db, id);
  // Revisions newer than the published one are drafts: only those who may edit or review the item see them.
  const draftsHidden = hasNewerDraft(item) && !(await mayOpenDraft(db, actor, item));
  const shown = draftsHidden ? rows.filter((r) => r.version <= item.publishedVersion!) : rows;
  return shown.map((r) => ({
    ...revisionMarks(item, r.version),
    ...(reviews.has(r.version) ? { reviews: reviews.get(r.version) } : {}),
    id: r.id,
    version: r.version,
    title: r.title,
    content: r.content,
    authorName: authorName(r.firstName, r.lastName, r.email),
    createdAt: new Date(r.createdAt).toISOString(),
    changeLog: r.changeLog,
  }));
}

/** Is this version the published one, or a draft newer than it (items never published mark none)? */
function revisionMarks(item: Item, version: number): Pick<VersionItem, 'published' | 'draft'> {
  if (item.publishedVersion === null) return {};
  if (version === item.publishedVersion) return { published: true };
  return version > item.publishedVersion ? { draft: true } : {};
}

export interface RestoreOptions {
  /** The version the restore was based on; a stale one answers 409. */
  version?: number;
}

/**
 * Makes the item match an earlier version as a NEW version ("Restored from version N"); no version is rewritten.
 * A deleted item is found (and so undeleted) only for users with knowledge.restore; for others it is 404.
 */
export async function restoreVersion(
  db: Db,
  space: Space,
  id: string,
  versionId: string,
  actor: Actor,
  opts: RestoreOptions = {},
): Promise<Item> {
  if (!isUuid(versionId)) throw notFound('Version not found.');
  const actorId = actor?.id ?? null;
  await db.transaction(async (tx) => {
    const current = await lockRow(tx, space, id, can(actor, 'knowledge.restore'));
    await authorizeItem(tx, actor, current, 'item.write');
    if (opts.version !== undefined && opts.version !== current.version) {
      throw conflict(
        `This item was changed by someone else (now version ${current.version}). Reload it and try again.`,
      );
    }
    const [source] = await tx
      .select()
      .from(documentVersions)
      .where(and(eq(documentVersions.id, versionId), eq(documentVersions.documentId, id)));
    if (!source) throw notFound('Version not found.');
    const snap = { ...snapshotOf(current), ...(source.snapshot as object) } as ReturnType<typeof snapshotOf>;
    // A restore is a save: the review rules decide its state (the restored switch is not a request to publish).
    const state = await savedRevisionState(
      tx,
      space,
      current,
      { templateType: snap.templateType },
      current.version + 1,
    );
    const [row] = await tx
      .update(documents)
      .set({
        ...snap,
        ...state,
        title: source.title,
        content: source.content,
        version: current.version + 1,
        deletedAt: null,
        updatedAt: new Date(),
      })
      .where(eq(documents.id, id))
      .returning(itemColumns);
    await writeVersion(tx, row, actorId, `Restored from version ${source.version}`);
    // A restore is a save: it clears the item's review flags as an edit does (once readers see it).
    if (!hasNewerDraft(row)) await clearReviewFlags(tx, row.id);
    await itemSaved(tx, space, row, actorId, 'restored');
    await recordAudit(tx, {
      actorId,
      action: `${SPACES[space].audit.action}.restore`,
      entityType: SPACES[space].audit.entityType,
      entityId: id,
      details: { title: source.title, fromVersion: source.version, version: row.version },
    });
    // A restore is a save (an undelete brings the item back): an update to those who follow items by webhook.
    await queueItemEvent(tx, current.deletedAt ? 'item.created' : 'item.updated', space, row, actorId);
    if (current.deletedAt) {
      await recordAudit(tx, {
        actorId,
        action: `${SPACES[space].audit.action}.undelete`,
        entityType: SPACES[space].audit.entityType,
        entityId: id,
        details: { fromVersion: source.version },
      });
    }
  });
  return (await getItem(db, space, id))!;
}
