import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { recordAudit } from '../audit/service';
import { itemsAfter, type ItemCursor, type ListFilters } from '../knowledge/service';
import { SPACES, type Space } from '../knowledge/shared';
import { itemEntries, prepareItems, ZipContents } from './item-files';
import { folderName } from './names';
import { zipStream, type ZipEntry } from './zip-stream';

/** Items read from the database at a time. */
export const EXPORT_PAGE_SIZE = 200;

/** The list page's filters a whole-space export honours. */
export type SpaceExportFilters = Pick<ListFilters, 'q' | 'type' | 'category' | 'review'>;

/**
 * Every item of a space the filters name, oldest first, as zip entries: `<category-folder>/<title-slug>.md` (top
 * level when it has no category) and the images they link to, each once under `images/` at the top of the zip.
 * Items are read a keyset page at a time (with one query for what the page's images are) and each entry only when the
 * zip asks for it: however many items there are, memory holds one page and the names written so far.
 */
export async function* spaceEntries(
  db: Db,
  viewer: Actor,
  space: Space,
  filters: SpaceExportFilters,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ZipEntry> {
  const zip = new ZipContents();
  let after: ItemCursor | null = null;
  do {
    const page: Awaited<ReturnType<typeof itemsAfter>> = await itemsAfter(
      db,
      space,
      { ...filters, viewer },
      after,
      pageSize,
    );
    for (const prepared of await prepareItems(db, viewer, space, page.items)) {
      yield* itemEntries(db, prepared, folderName(prepared.item.category), zip);
    }
    after = page.next;
  } while (after);
}

/**
 * The whole-space export (admins): the zip streamed as it is made, and one audit event saying who exported what.
 * The type filter applies to the space with kinds (knowledge) only, as on its list page. The first page is read
 * before this returns (zipStream), so a database that fails it fails the request (503) and nothing is audited.
 */
export async function exportSpace(
  db: Db,
  viewer: NonNullable<Actor>,
  space: Space,
  filters: SpaceExportFilters,
  onError?: (err: unknown) => void,
): Promise<ReadableStream<Uint8Array>> {
  const applied = { ...filters, type: SPACES[space].hasKinds ? filters.type : undefined };
  const stream = await zipStream(spaceEntries(db, viewer, space, applied), onError);
  try {
    await recordAudit(db, {
      actorId: viewer.id,
      action: 'data.export',
      entityType: 'space',
      entityId: space,
      details: Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== undefined)),
    });
  } catch (err) {
    await stream.cancel();
    throw err;
  }
  return stream;
}
