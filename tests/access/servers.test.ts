import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import { readersOf, seedAccessWorld, strangersOf, type AccessWorld } from './fixture';

/** Issue 21, "No leak anywhere": the documents linked to a server (lists, counts, link choices), per reader. */

let t: TestContext;
let w: AccessWorld;
let serverId: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
  const [s] = await t.db
    .insert(servers)
    .values({ name: 'vault-01', environment: 'production' })
    .returning({ id: servers.id });
  serverId = s.id;
  await t.db.insert(serverDocuments).values([
    { serverId, documentId: w.secret.id, documentType: 'runbook' },
    { serverId, documentId: w.open.id, documentType: 'runbook' },
  ]);
});
afterAll(() => t.close());

const get = (path: string, u: TestUser) => t.app.request(path, { headers: { Cookie: u.cookie } });

async function linked(u: TestUser): Promise<string[]> {
  const res = await get(`/api/servers/${serverId}/documents`, u);
  expect(res.status).toBe(200);
  return ((await res.json()) as { title: string }[]).map((d) => d.title);
}

/** The server's row on /infrastructure: its runbook count. */
async function rowCount(u: TestUser): Promise<string | undefined> {
  const html = await (await get('/infrastructure', u)).text();
  return /(\d+) runbooks?</.exec(html)?.[1];
}

describe("a server's linked documents: a restricted item", () => {
  it('is neither listed, offered nor counted for those who may not read it', async () => {
    for (const [who, u] of strangersOf(w)) {
      expect(await linked(u), who).toEqual([w.open.title]);
      const detail = await (await get(`/infrastructure/${serverId}`, u)).text();
      expect(detail, who).toContain(w.open.title);
      // Neither among the linked documents nor among the documents offered to link.
      expect(detail, who).not.toContain(w.secret.title);
      expect(detail, who).not.toContain(w.secret.id);
      expect(await rowCount(u), who).toBe('1');
    }
  });

  it('is listed and counted for the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      expect(await linked(u), who).toEqual([w.secret.title, w.open.title].sort());
      expect(await (await get(`/infrastructure/${serverId}`, u)).text(), who).toContain(w.secret.title);
      expect(await rowCount(u), who).toBe('2');
    }
  });

  it('cannot be linked by someone who may not read it (404), and its links are not in their answer', async () => {
    const [other] = await t.db
      .insert(servers)
      .values({ name: 'vault-02', environment: 'production' })
      .returning({ id: servers.id });
    const link = (u: TestUser, documentId: string) =>
      t.app.request(`/api/servers/${other.id}/documents`, jsonRequest('POST', { documentId }, u.cookie));
    const refused = await link(w.strangers.editor, w.secret.id);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ message: 'Document not found.' });

    expect((await link(w.owner, w.secret.id)).status).toBe(201);
    const answer = await link(w.strangers.editor, w.open.id);
    expect(answer.status).toBe(201);
    const titles = ((await answer.json()) as { title: string }[]).map((d) => d.title);
    expect(titles).toEqual([w.open.title]);
  });
});
