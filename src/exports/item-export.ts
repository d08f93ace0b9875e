import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { getItem, readerRevision } from '../knowledge/service';
import type { Space } from '../knowledge/schemas';
import { itemEntries, prepareItem, ZipContents, type PreparedItem } from './item-files';
import { fileSlug } from './names';
import { zipStream } from './zip-stream';

/**
 * One item ready to download, as its read page shows it: the published revision while a newer one waits for review,
 * or with `draft` the newest for those who may edit or review it. Null when it does not exist in this space, was
 * deleted or `viewer` may not read it (a 404, like its page).
 */
export async function itemExport(
  db: Db,
  viewer: Actor,
  space: Space,
  id: string,
  opts: { draft?: boolean } = {},
): Promise<PreparedItem | null> {
  const newest = await getItem(db, space, id, { viewer });
  if (!newest) return null;
  const { latestVersion: _newest, ...shown } = await readerRevision(db, viewer, newest, !!opts.draft);
  return prepareItem(db, viewer, space, shown);
}

/** The item's zip, made as it is sent: `<slug>.md` and `images/<id>.<ext>` beside it. */
export const itemZip = (db: Db, prepared: PreparedItem, onError?: (err: unknown) => void) =>
  zipStream(itemEntries(db, prepared, '', new ZipContents()), onError);

/** The download's file name: `<title-slug>.md` or `.zip`. */
export const itemFileName = (prepared: PreparedItem, ext: 'md' | 'zip') => `${fileSlug(prepared.item.title)}.${ext}`;
