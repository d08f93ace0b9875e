import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, serverDocuments } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { runbookCalls } from './helpers';

/**
 * Linking from the server's side asks what the item's own Servers picker asks (issue 23): a link changes what the
 * item's page shows and which changes flag it, so only those who may edit the item link or unlink it, and one who may
 * not read it learns nothing (the same 404 whether it was linked or not).
 */

let t: TestContext;
let olga: TestUser;
let bob: TestUser;
let carol: TestUser;
let serverId: string;
let itemId: string;
const { call, ok, server } = runbookCalls(() => t);

const linked = async () =>
  (
    await t.db
      .select()
      .from(serverDocuments)
      .where(and(eq(serverDocuments.serverId, serverId), eq(serverDocuments.documentId, itemId)))
  ).length;

beforeAll(async () => {
  t = await createTestApp();
  olga = await createSignedInUser(t.db, { role: 'editor', firstName: 'Olga' });
  bob = await createSignedInUser(t.db, { role: 'editor', firstName: 'Bob' });
  carol = await createSignedInUser(t.db, { role: 'editor', firstName: 'Carol' });
  serverId = (await server(olga, 'web-acl')).id;
  itemId = (await ok(olga, 'POST', '/api/knowledge-base', { title: 'Restricted runbook', content: 'x' }, 201)).id;
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, itemId));
  await ok(olga, 'POST', `/api/knowledge-base/${itemId}/shares`, { userId: bob.id, permission: 'read' }, 201);
});
afterAll(() => t.close());

describe('server-side links of a restricted item', () => {
  it('one who may only read it may not link it (403), as PUT …/servers refuses them', async () => {
    const res = await call(bob, 'POST', `/api/servers/${serverId}/documents`, { documentId: itemId });
    expect(res.status).toBe(403);
    expect(res.body.message).toEqual(expect.any(String));
    expect((await call(bob, 'PUT', `/api/knowledge-base/${itemId}/servers`, { serverIds: [serverId] })).status).toBe(
      403,
    );
    expect(await linked()).toBe(0);
  });

  it('one who may not read it gets 404 to link it, and the same 404 to unlink it, linked or not', async () => {
    expect((await call(carol, 'POST', `/api/servers/${serverId}/documents`, { documentId: itemId })).status).toBe(404);
    await ok(olga, 'POST', `/api/servers/${serverId}/documents`, { documentId: itemId }, 201);
    const whileLinked = await call(carol, 'DELETE', `/api/servers/${serverId}/documents`, { documentId: itemId });
    expect(whileLinked.status).toBe(404);
    expect(whileLinked.body.message).toBe('That document is not linked to this server.');
    expect(await linked()).toBe(1);
    const other = await ok(carol, 'POST', '/api/knowledge-base', { title: 'Open', content: 'y' }, 201);
    const neverLinked = await call(carol, 'DELETE', `/api/servers/${serverId}/documents`, { documentId: other.id });
    expect(neverLinked).toEqual(whileLinked);
  });

  it('the reader with a read share may not unlink it (403); its owner may', async () => {
    expect((await call(bob, 'DELETE', `/api/servers/${serverId}/documents`, { documentId: itemId })).status).toBe(403);
    await ok(olga, 'DELETE', `/api/servers/${serverId}/documents`, { documentId: itemId });
    expect(await linked()).toBe(0);
  });
});
