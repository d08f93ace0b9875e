import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects } from '../db/schema';
import { authorize, type Actor } from '../auth/policy';
import { conflict, notFound } from '../http/errors';
import type { ImageType } from './sniff';

export type Visibility = 'public' | 'private';

export interface StoredObject {
  id: string;
  contentType: string;
  size: number;
  data: Buffer;
  visibility: Visibility;
  ownerId: string | null;
}

/** Stores an uploaded image (private until its ACL is set); 409 when the id was already used. */
export async function saveObject(
  db: Db,
  id: string,
  ownerId: string,
  type: ImageType,
  data: Uint8Array,
): Promise<void> {
  const [existing] = await db.select({ id: objects.id }).from(objects).where(eq(objects.id, id));
  if (existing) throw conflict('This upload URL has already been used.');
  await db
    .insert(objects)
    .values({ id, ownerId, contentType: type, size: data.byteLength, data: Buffer.from(data), visibility: 'private' });
}

/** Stores an image under an id of the caller's choosing unless that id is stored already (an import stores each image once). */
export async function saveObjectOnce(
  db: Db,
  id: string,
  ownerId: string,
  type: ImageType,
  data: Uint8Array,
): Promise<void> {
  await db
    .insert(objects)
    .values({ id, ownerId, contentType: type, size: data.byteLength, data: Buffer.from(data), visibility: 'private' })
    .onConflictDoNothing({ target: objects.id });
}

/** Sets who may see an object (policy: image.visibility, its owner or an admin). Returns its serving path. */
export async function setVisibility(db: Db, id: string, visibility: Visibility, actor: Actor): Promise<string> {
  const [row] = await db.select({ ownerId: objects.ownerId }).from(objects).where(eq(objects.id, id));
  if (!row) throw notFound('Image not found.');
  authorize(actor, 'image.visibility', { ownerId: row.ownerId });
  await db.update(objects).set({ visibility }).where(eq(objects.id, id));
  return `/objects/${id}`;
}

/** Deletes an object if `ownerId` owns it (a replaced or removed avatar). */
export async function deleteOwnObject(db: Db, id: string, ownerId: string): Promise<void> {
  await db.delete(objects).where(and(eq(objects.id, id), eq(objects.ownerId, ownerId)));
}

/** One stored object, or null. */
export async function getObject(db: Db, id: string): Promise<StoredObject | null> {
  const [row] = await db.select().from(objects).where(eq(objects.id, id));
  return (row as StoredObject | undefined) ?? null;
}

/** What an object is, without its bytes. */
export type ObjectInfo = Pick<StoredObject, 'id' | 'contentType' | 'size' | 'visibility' | 'ownerId'>;

/** The objects of these ids that exist, without their bytes (one query). */
export async function objectInfos(db: Db, ids: string[]): Promise<ObjectInfo[]> {
  if (!ids.length) return [];
  return (await db
    .select({
      id: objects.id,
      contentType: objects.contentType,
      size: objects.size,
      visibility: objects.visibility,
      ownerId: objects.ownerId,
    })
    .from(objects)
    .where(inArray(objects.id, ids))) as ObjectInfo[];
}

/** May `viewer` see the object (as GET /objects/{id} serves it): a public one anyone, a private one anyone signed in. */
export const maySeeObject = (object: Pick<StoredObject, 'visibility'>, viewer: Actor) =>
  object.visibility === 'public' || !!viewer;

/** What an upload's bytes are (by magic bytes, never by its name or declared type). */
export { sniffImage } from './sniff';
export type { ImageType } from './sniff';
