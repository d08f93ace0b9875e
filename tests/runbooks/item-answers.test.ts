import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentReviewFlags, serverDocuments } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23: every item answer of the JSON API carries its linked servers' live state and its review flags. */

let t: TestContext;
let editor: TestUser;
let serverId: string;
let itemId: string;

const call = (method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, editor.cookie));

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor', firstName: 'Ada', lastName: 'Lovelace' });
  const server = await (
    await call('POST', '/api/servers', { name: 'web1', ipAddress: '127.0.0.1', status: 'maintenance' })
  ).json();
  serverId = server.id;
  await call('PUT', `/api/servers/${serverId}/metrics`, {
    cpuUsage: 41,
    memoryUsage: 52,
    diskUsage: 63,
    uptime: 90061,
  });
  const item = await (await call('POST', '/api/knowledge-base', { title: 'Patch web1', content: 'Steps' })).json();
  itemId = item.id;
  await t.db.insert(serverDocuments).values({ serverId, documentId: itemId, documentType: 'knowledge-base' });
});
afterAll(() => t.close());

const expectedServer = () => ({
  id: serverId,
  name: 'web1',
  ipAddress: '127.0.0.1',
  status: 'maintenance',
  environment: 'development',
  cpuUsage: 41,
  memoryUsage: 52,
  diskUsage: 63,
  uptime: 90061,
});

describe('item answers (issue 23)', () => {
  it('GET one item carries its servers with their live state and no flags', async () => {
    const item = await (await call('GET', `/api/knowledge-base/${itemId}`)).json();
    expect(item.servers).toEqual([expect.objectContaining(expectedServer())]);
    expect(item.servers[0].metricsUpdatedAt).toEqual(expect.any(String));
    expect(item.reviewFlags).toEqual([]);
  });

  it('the list carries them too, and a flag makes the item need review', async () => {
    await t.db.insert(documentReviewFlags).values({
      documentId: itemId,
      serverId,
      serverName: 'web1',
      field: 'ipAddress',
      fromValue: '127.0.0.1',
      toValue: '127.0.0.2',
      byName: 'Ada Lovelace',
    });
    const list = await (await call('GET', '/api/knowledge-base')).json();
    const item = list.find((i: { id: string }) => i.id === itemId);
    expect(item.servers).toEqual([expect.objectContaining(expectedServer())]);
    expect(item.reviewFlags).toEqual([
      {
        serverId,
        serverName: 'web1',
        field: 'ipAddress',
        from: '127.0.0.1',
        to: '127.0.0.2',
        at: expect.any(String),
        by: 'Ada Lovelace',
      },
    ]);
    expect(item.needsReview).toBe(true);
  });

  it('an item without links answers empty lists', async () => {
    const res = await call('POST', '/api/documents', { title: 'Plain', content: 'Text' });
    const item = await res.json();
    expect(res.status).toBe(201);
    expect(item.servers).toEqual([]);
    expect(item.reviewFlags).toEqual([]);
  });
});
