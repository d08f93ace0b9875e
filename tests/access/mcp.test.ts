import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import { call, connect, newToken, resourceText } from '../mcp/client';
import { readersOf, seedAccessWorld, seedLinkedServer, strangersOf, type AccessWorld } from './fixture';

/**
 * Issue 26, permission-aware everywhere: an agent on the MCP server, holding a user's token, gets only what that user
 * may read. The restricted item's unique words (its title, "PASSPHRASE", its id) reach neither a tool result, a
 * resource list nor a resource read for those who may not read it, and do for those who may.
 */

let t: TestContext;
let w: AccessWorld;
let serverId: string;
const clients = new Map<TestUser, Client>();

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
  serverId = await seedLinkedServer(t.db, w);
  for (const [, u] of [...strangersOf(w), ...readersOf(w)])
    clients.set(u, await connect(t, (await newToken(t, u)).token));
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await t?.close();
});

/** Everything an agent reads about "quasar" and the vault server through the tools and the resource list. */
async function everythingSeen(client: Client): Promise<string> {
  const seen = [
    await call(client, 'search_documents', { query: 'quasar' }),
    await call(client, 'search_documents', { query: 'passphrase vault' }),
    await call(client, 'recent_documents'),
    await call(client, 'get_document', { id: w.secret.id }),
    await call(client, 'get_server', { name_or_id: 'vault-01' }),
  ].map((r) => r.text);
  seen.push(JSON.stringify((await client.listResources()).resources));
  seen.push(JSON.stringify(await client.readResource({ uri: `opshub://servers/${serverId}` })));
  return seen.join('\n');
}

describe('MCP tools and resources: a restricted item', () => {
  it('never reach an agent of a user who may not read it; the open item does', async () => {
    for (const [who, u] of strangersOf(w)) {
      const client = clients.get(u)!;
      const seen = await everythingSeen(client);
      expect(seen, who).toContain(w.open.title);
      expect(seen, who).not.toContain(w.secret.title);
      expect(seen, who).not.toContain('PASSPHRASE');
      expect(seen, who).not.toContain(w.secret.id);
      expect(await call(client, 'get_document', { id: w.secret.id }), who).toEqual({
        isError: true,
        text: 'Document not found.',
      });
      await expect(client.readResource({ uri: `opshub://knowledge/${w.secret.id}` }), who).rejects.toThrow(
        `Resource opshub://knowledge/${w.secret.id} not found`,
      );
    }
  });

  it('reach the agents of the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      const client = clients.get(u)!;
      const seen = await everythingSeen(client);
      expect(seen, who).toContain(w.secret.title);
      const doc = await resourceText(client, `opshub://knowledge/${w.secret.id}`);
      expect(doc, who).toContain('QUASAR-SECRET-PASSPHRASE');
    }
  });
});
