import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { fillServerPlaceholders, linkedServersOf, reviewFlagsOf } from '../runbooks/service';
import type { ServerSummary } from '../runbooks/shared';
import { getItem, isUuid } from './items';
import { renderedContent, type RenderedContent } from './rendered-content';
import { hasNewerDraft, mayOpenDraft, publishedView } from './revisions';
import type { Item, Space } from './schemas';

/**
 * Which revision the page shows: the published one while a newer draft waits (`newer`: its version), or the newest
 * (`draft` when the reader asked for the draft and may edit it).
 */
export type ShownRevision = { showing: 'published'; newer: number } | { showing: 'newest' | 'draft' };

/** What an item's read page shows: the item, its content rendered, and the servers it is linked to. */
export type ReadableItem = RenderedContent & {
  item: Item;
  servers: ServerSummary[];
  /** The values its server placeholders show (the content's version does not stand for them). */
  placeholderValues: string[];
  revision: ShownRevision;
  /** The newest revision (the item as stored; `item` when that is what the page shows). */
  newest: Item;
};

/**
 * A live item ready to read, or null when it does not exist in this space, was deleted or the viewer may not read it.
 * Readers see the published revision while a newer one is a draft or in review; `draft` asks for the newest, which
 * those who may edit or review the item get.
 */
export async function readItem(
  db: Db,
  space: Space,
  id: string,
  viewer: Actor,
  opts: { draft?: boolean; timeZone?: string } = {},
): Promise<ReadableItem | null> {
  if (!isUuid(id)) return null;
  const [newest, servers, reviewFlags] = await Promise.all([
    getItem(db, space, id, { viewer }),
    linkedServersOf(db, id),
    reviewFlagsOf(db, id),
  ]);
  if (!newest) return null;
  const shown = await shownRevision(db, newest, viewer, !!opts.draft);
  const { revision } = shown;
  const item = { ...shown.item, reviewFlags };
  const filled = await fillServerPlaceholders(db, item.content, opts.timeZone);
  return { item, ...renderedContent(item, filled), servers, placeholderValues: filled.values, revision, newest };
}

async function shownRevision(
  db: Db,
  newest: Item,
  viewer: Actor,
  draft: boolean,
): Promise<{ item: Item; revision: ShownRevision }> {
  if (!hasNewerDraft(newest)) return { item: newest, revision: { showing: 'newest' } };
  if (draft && (await mayOpenDraft(db, viewer, newest))) return { item: newest, revision: { showing: 'draft' } };
  return { item: await publishedView(db, newest), revision: { showing: 'published', newer: newest.version } };
}
