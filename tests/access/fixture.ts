import type { Db } from '../../src/db/client';
import { documents, documentShares, serverDocuments, servers } from '../../src/db/schema';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * One restricted item and one open item, and the people around them, for the "No leak anywhere" tests of issue 21:
 * - who may read the restricted item: its owner, an admin, a user with a live read share;
 * - who may not: another editor, a viewer, a user whose share was revoked and one whose share expired.
 * Both items are knowledge items with the word "quasar" (the restricted one ranks first for it, and is the newest),
 * so a filter applied after a search's limit or a list's limit would show up as a missing open item.
 */
export interface AccessWorld {
  admin: TestUser;
  owner: TestUser;
  shared: TestUser;
  /** May not read the restricted item: an editor, a viewer, a revoked share, an expired share. */
  strangers: { editor: TestUser; viewer: TestUser; revoked: TestUser; expired: TestUser };
  secret: { id: string; title: string; content: string };
  open: { id: string; title: string };
}

export const SECRET_TITLE = 'Quasar vault rotation';
export const SECRET_CONTENT = 'QUASAR-SECRET-PASSPHRASE lives in the quasar vault; quasar quasar quasar.';
export const OPEN_TITLE = 'Quasar public checklist';

const HOUR = 3_600_000;

/** Seeds the users, the two items (secret owned by `owner`, restricted) and the shares, straight into the tables. */
export async function seedAccessWorld(db: Db, space: 'knowledge' | 'documents' = 'knowledge'): Promise<AccessWorld> {
  const admin = await createSignedInUser(db, { role: 'admin', firstName: 'Ada' });
  const owner = await createSignedInUser(db, { role: 'editor', firstName: 'Olga' });
  const shared = await createSignedInUser(db, { role: 'viewer', firstName: 'Sam' });
  const strangers = {
    editor: await createSignedInUser(db, { role: 'editor', firstName: 'Eve' }),
    viewer: await createSignedInUser(db, { role: 'viewer', firstName: 'Vic' }),
    revoked: await createSignedInUser(db, { role: 'viewer', firstName: 'Rex' }),
    expired: await createSignedInUser(db, { role: 'viewer', firstName: 'Exa' }),
  };
  const now = Date.now();
  const [open] = await db
    .insert(documents)
    .values({
      space,
      title: OPEN_TITLE,
      content: 'Steps anyone may read about quasar.',
      category: 'Security',
      authorId: admin.id,
      ownerId: admin.id,
      isPublished: true,
      updatedAt: new Date(now - HOUR),
    })
    .returning({ id: documents.id });
  const [secret] = await db
    .insert(documents)
    .values({
      space,
      title: SECRET_TITLE,
      content: SECRET_CONTENT,
      excerpt: 'quasar vault',
      category: 'Security',
      tags: ['quasar'],
      authorId: owner.id,
      ownerId: owner.id,
      visibility: 'restricted',
      isPublished: true,
    })
    .returning({ id: documents.id });
  await db.insert(documentShares).values([
    { documentId: secret.id, sharedByUserId: owner.id, sharedWithUserId: shared.id, permission: 'read' },
    {
      documentId: secret.id,
      sharedByUserId: owner.id,
      sharedWithUserId: strangers.revoked.id,
      permission: 'read',
      revokedAt: new Date(now - HOUR),
    },
    {
      documentId: secret.id,
      sharedByUserId: owner.id,
      sharedWithUserId: strangers.expired.id,
      permission: 'write',
      expiresAt: new Date(now - HOUR),
    },
  ]);
  return {
    admin,
    owner,
    shared,
    strangers,
    secret: { id: secret.id, title: SECRET_TITLE, content: SECRET_CONTENT },
    open: { id: open.id, title: OPEN_TITLE },
  };
}

/** Those who may read the restricted item, by name (for test titles). */
export const readersOf = (w: AccessWorld): [string, TestUser][] => [
  ['admin', w.admin],
  ['owner', w.owner],
  ['user with a read share', w.shared],
];

/** Those who may not, by name. */
export const strangersOf = (w: AccessWorld): [string, TestUser][] => [
  ['another editor', w.strangers.editor],
  ['a viewer', w.strangers.viewer],
  ['a user whose share was revoked', w.strangers.revoked],
  ['a user whose share expired', w.strangers.expired],
];

/** A server with both items linked to it (its restricted runbook must not show through the server either). */
export async function seedLinkedServer(db: Db, w: AccessWorld, name = 'vault-01'): Promise<string> {
  const [s] = await db.insert(servers).values({ name, environment: 'production' }).returning({ id: servers.id });
  await db.insert(serverDocuments).values([
    { serverId: s.id, documentId: w.secret.id, documentType: 'runbook' },
    { serverId: s.id, documentId: w.open.id, documentType: 'runbook' },
  ]);
  return s.id;
}
