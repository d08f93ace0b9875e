import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import type { Item, Space } from '../knowledge/schemas';
import { getObject, maySeeObject, objectInfos, type ObjectInfo } from '../objects/service';
import { imageIdsIn, itemMarkdown, rewriteImageLinks } from './markdown-file';
import { fileSlug, ZipNames } from './names';
import type { ZipEntry } from './zip-stream';

/** The file extension of each image type we store. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** Ids asked for in one objects query at most (a query takes at most 65,535 parameters). */
const IDS_PER_QUERY = 10_000;

/** An image an export writes: its id and its path from the top of the zip, `images/<id>.<ext>`. */
export interface ZipImage {
  id: string;
  path: string;
}

/** An item ready to write: the item, and the stored images its content links to that the viewer may see. */
export interface PreparedItem {
  item: Item;
  space: Space;
  images: ZipImage[];
}

const zipImage = (o: ObjectInfo): ZipImage => ({
  id: o.id,
  path: `images/${o.id}.${EXTENSIONS[o.contentType] ?? 'bin'}`,
});

/** The stored images of these ids that exist and `viewer` may see, by id (without their bytes). */
async function visibleImages(db: Db, viewer: Actor, ids: string[]): Promise<Map<string, ZipImage>> {
  const found = new Map<string, ZipImage>();
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    for (const o of await objectInfos(db, ids.slice(at, at + IDS_PER_QUERY))) {
      if (maySeeObject(o, viewer)) found.set(o.id, zipImage(o));
    }
  }
  return found;
}

/**
 * Items as an export writes them, each with the stored images its content links to that `viewer` may see. One
 * objects query for all of them (a page of a space export), not one an item.
 */
export async function prepareItems(db: Db, viewer: Actor, space: Space, items: Item[]): Promise<PreparedItem[]> {
  const idsOf = items.map((item) => imageIdsIn(item.content));
  const images = await visibleImages(db, viewer, [...new Set(idsOf.flat())]);
  return items.map((item, i) => ({
    item,
    space,
    images: idsOf[i].flatMap((id) => images.get(id) ?? []),
  }));
}

/** One item ready to write (an item download). */
export const prepareItem = async (db: Db, viewer: Actor, space: Space, item: Item): Promise<PreparedItem> =>
  (await prepareItems(db, viewer, space, [item]))[0];

/** The markdown file of an item without images (export.md): its content as stored, links and all. */
export const plainMarkdown = ({ item, space }: PreparedItem) => itemMarkdown(item, space, item.content);

/**
 * What one zip holds so far: its file names, and each image met, true once its file is in the zip, false when it was
 * gone by its turn (deleted since the export was prepared). Grows with the zip's images, not with their bytes.
 */
export class ZipContents {
  readonly names = new ZipNames();
  readonly images = new Map<string, boolean>();
}

const encoder = new TextEncoder();

/** `../` once per folder level: from a file in `folder` back to the top of the zip. */
const toTop = (folder: string) => (folder ? '../'.repeat(folder.split('/').length) : '');

/**
 * The zip entries of one item in `folder`: its images not in the zip yet (each image once a zip, under `images/` at
 * its top; read one at a time, as the zip takes them), then `<slug>.md` (a free name: `-2`, `-3` … after a taken one)
 * with its links pointing at them from its folder. The markdown is written last so that it links only to files that
 * are in the zip: a link to an image deleted since the export was prepared stays its `/objects/{id}` URL, as a link
 * to an image that was already missing does.
 */
export async function* itemEntries(
  db: Db,
  prepared: PreparedItem,
  folder: string,
  zip: ZipContents,
): AsyncGenerator<ZipEntry> {
  const { item, space } = prepared;
  const mtime = new Date(item.updatedAt);
  const links = new Map<string, string>();
  for (const image of prepared.images) {
    if (!zip.images.has(image.id)) {
      const object = await getObject(db, image.id);
      zip.images.set(image.id, !!object);
      if (object) yield { name: image.path, data: object.data, mtime };
    }
    if (zip.images.get(image.id)) links.set(image.id, toTop(folder) + image.path);
  }
  const markdown = itemMarkdown(item, space, rewriteImageLinks(item.content, links));
  const name = zip.names.markdownPath(folder, fileSlug(item.title));
  yield { name, data: encoder.encode(markdown), deflate: true, mtime };
}
