import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest, unsupportedMedia } from '../http/errors';
import { deleteOwnObject, saveObject, sniffImage } from '../objects/service';

/** Avatars are small pictures: a larger file is refused with this limit named. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

const OWN_OBJECT = /^\/objects\/([0-9a-f-]{36})$/i;

/** Points the user's avatar at `url` and deletes the avatar image it replaces, if it was one we stored. */
async function replaceAvatar(db: Db, userId: string, url: string | null): Promise<void> {
  const [user] = await db.select({ old: users.profileImageUrl }).from(users).where(eq(users.id, userId)).for('update');
  await db.update(users).set({ profileImageUrl: url, updatedAt: new Date() }).where(eq(users.id, userId));
  const oldId = OWN_OBJECT.exec(user?.old ?? '')?.[1];
  if (oldId) await deleteOwnObject(db, oldId.toLowerCase(), userId);
}

/** Stores a new avatar (PNG, JPEG, GIF or WebP by its bytes, at most 2 MB) and returns its path. */
export async function setAvatar(db: Db, userId: string, bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength === 0) throw badRequest('Choose an image to upload.');
  if (bytes.byteLength > MAX_AVATAR_BYTES) throw badRequest('Avatars can be at most 2 MB.');
  const type = sniffImage(bytes);
  if (!type) throw unsupportedMedia('Only PNG, JPEG, GIF and WebP images can be used as an avatar.');
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await saveObject(tx, id, userId, type, bytes);
    await replaceAvatar(tx, userId, `/objects/${id}`);
  });
  return `/objects/${id}`;
}

/** Back to initials: the avatar is cleared and its image deleted. */
export async function removeAvatar(db: Db, userId: string): Promise<void> {
  await db.transaction((tx) => replaceAvatar(tx, userId, null));
}
