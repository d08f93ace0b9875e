import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documentReviewFlags, documents, notifications, serverDocuments } from '../../src/db/schema';
import { createApiToken } from '../../src/servers/tokens';
import { createPersonalToken } from '../../src/settings/api-tokens';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { openPort } from '../servers/loopback';
import { runbookCalls } from './helpers';

/**
 * Review flags (issue 23): a change of a linked server's identity flags every document linked to it, one flag per
 * changed field, with an audit event and one notification per change to the owner and watchers who may read it.
 */

let t: TestContext;
let ada: TestUser;
let owner: TestUser;
let watcher: TestUser;
let outsider: TestUser;
const { call, ok, server, linkedItem, form } = runbookCalls(() => t);

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t.db, { role: 'editor', firstName: 'Ada', lastName: 'Ops' });
  owner = await createSignedInUser(t.db, { role: 'editor', firstName: 'Olive', lastName: 'Owner' });
  watcher = await createSignedInUser(t.db, { role: 'viewer', firstName: 'Walt', lastName: 'Watcher' });
  outsider = await createSignedInUser(t.db, { role: 'editor', firstName: 'Otto', lastName: 'Outside' });
});
afterAll(() => t.close());

const flagsOf = async (id: string, base = '/api/knowledge-base') =>
  (await ok(owner, 'GET', `${base}/${id}`)).reviewFlags;
const told = (documentId: string) => t.db.select().from(notifications).where(eq(notifications.documentId, documentId));

const CHANGES: [string, string | null, string][] = [
  ['name', 'web-a', 'web-b'],
  ['hostname', 'web-a.corp.example.com', 'web-b.corp.example.com'],
  ['ipAddress', '127.0.1.1', '127.0.1.2'],
  ['operatingSystem', 'Ubuntu 22.04', 'Ubuntu 24.04'],
  ['environment', 'production', 'staging'],
  ['serverType', 'Virtual', 'Physical'],
  ['domain', 'corp.example.com', 'ops.example.com'],
  ['network', 'DMZ', 'Internal'],
];

describe('a linked server changes', () => {
  it('flags a linked item once for EACH identity field, old → new, when and by whom, with serverName', async () => {
    let s = await server(ada, 'web-a');
    const item = await linkedItem(owner, s.id, 'Patch runbook');
    expect(await flagsOf(item.id)).toEqual([]);
    for (const [i, [field, from, to]] of CHANGES.entries()) {
      const before = Date.now();
      s = await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { [field]: to }));
      const flags = await flagsOf(item.id);
      expect(flags, field).toHaveLength(i + 1);
      const flag = flags[i];
      expect(flag).toEqual({
        serverId: s.id,
        serverName: s.name,
        field,
        from,
        to,
        at: expect.any(String),
        by: 'Ada Ops',
      });
      expect(new Date(flag.at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    // The item answer says it needs review; lists carry the flags too.
    expect((await ok(owner, 'GET', `/api/knowledge-base/${item.id}`)).needsReview).toBe(true);
    const listed = (await ok(owner, 'GET', '/api/knowledge-base')).find((i: { id: string }) => i.id === item.id);
    expect(listed.reviewFlags).toHaveLength(CHANGES.length);
  });

  it('flags documents too, and one PUT changing two fields: two flags, one notification per reader', async () => {
    const s = await server(ada, 'db-two');
    const doc = await linkedItem(owner, s.id, 'DB failover', { base: 'documents' });
    const kb = await linkedItem(owner, s.id, 'DB restore');
    await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { ipAddress: '127.0.1.9', hostname: 'db2.example.com' }));
    expect((await flagsOf(doc.id, '/api/documents')).map((f: { field: string }) => f.field).sort()).toEqual([
      'hostname',
      'ipAddress',
    ]);
    expect(await flagsOf(kb.id)).toHaveLength(2);
    const [n] = await told(doc.id);
    expect(await told(doc.id)).toHaveLength(1);
    expect(n).toMatchObject({
      userId: owner.id,
      kind: 'server_changed',
      actorId: ada.id,
      link: `/documents/${doc.id}`,
      text: 'Ada Ops changed db-two (hostname db-two.corp.example.com → db2.example.com, IP address 127.0.1.1 → 127.0.1.9): "DB failover" may need review',
    });
  });

  it('never flags a change of status, metrics or a health check, nor a save that changes nothing', async () => {
    const port = await openPort();
    try {
      const s = await server(ada, 'quiet-1', { ipAddress: '127.0.0.1', monitorPort: port.port });
      const item = await linkedItem(owner, s.id, 'Quiet runbook');
      const online = await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { status: 'online' }));
      await ok(ada, 'PUT', `/api/servers/${s.id}`, form(online));
      const metrics = { cpuUsage: 50, memoryUsage: 60, diskUsage: 70, uptime: 3600, status: 'warning' };
      await ok(ada, 'PUT', `/api/servers/${s.id}/metrics`, metrics);
      const agent = await createApiToken(t.db, { name: 'agent', serverIds: [s.id] }, ada.id);
      await ok(agent.token, 'PUT', `/api/servers/${s.id}/metrics`, { ...metrics, status: 'online' });
      const checked = await ok(ada, 'POST', `/api/servers/${s.id}/health-check`);
      expect(checked.check).not.toBeNull();
      expect(await flagsOf(item.id)).toEqual([]);
      expect(await told(item.id)).toEqual([]);
    } finally {
      await port.close();
    }
  });

  it('a deletion flags every linked item (read before the links go) and the flag outlives the server', async () => {
    const s = await server(ada, 'gone-1');
    const item = await linkedItem(owner, s.id, 'Gone runbook');
    await ok(ada, 'DELETE', `/api/servers/${s.id}`);
    expect(await t.db.select().from(serverDocuments).where(eq(serverDocuments.serverId, s.id))).toEqual([]);
    expect(await flagsOf(item.id)).toEqual([
      {
        serverId: s.id,
        serverName: 'gone-1',
        field: 'deleted',
        from: 'gone-1',
        to: null,
        at: expect.any(String),
        by: 'Ada Ops',
      },
    ]);
    const [n] = await told(item.id);
    expect(n.text).toBe('Ada Ops deleted gone-1: "Gone runbook" may need review');
    const html = await (
      await t.app.request(`/knowledge-base/${item.id}`, { headers: { Cookie: owner.cookie } })
    ).text();
    expect(html).toMatch(/gone-1 was deleted, \d+ \w+ \d{4} by Ada Ops/);
    // An unknown server: 404, nothing flagged.
    expect((await call(ada, 'DELETE', `/api/servers/${s.id}`)).status).toBe(404);
    expect(await flagsOf(item.id)).toHaveLength(1);
  });

  it('records item.flagged on the item with the server and fields; a refused change flags nothing', async () => {
    const s = await server(ada, 'audit-1');
    await server(ada, 'audit-taken');
    const item = await linkedItem(owner, s.id, 'Audited runbook');
    await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { domain: 'new.example.com' }));
    const events = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'item.flagged'), eq(auditLog.entityId, item.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: ada.id,
      entityType: 'knowledge_item',
      details: { serverId: s.id, serverName: 'audit-1', fields: ['domain'] },
    });
    // A rename to a taken name is 409: the whole change rolls back, flags and notifications with it.
    const res = await call(ada, 'PUT', `/api/servers/${s.id}`, form(s, { name: 'audit-taken', network: 'LAN' }));
    expect(res.status).toBe(409);
    expect(await flagsOf(item.id)).toHaveLength(1);
    expect(await told(item.id)).toHaveLength(1);
  });

  it('a person with the longest names may still rename and delete a linked server (the flag keeps 200 characters)', async () => {
    const long = await createSignedInUser(t.db, {
      role: 'editor',
      firstName: 'F'.repeat(100),
      lastName: 'L'.repeat(100),
    });
    const s = await server(long, 'web-long');
    const item = await linkedItem(long, s.id, 'Long names runbook');
    await ok(long, 'PUT', `/api/servers/${s.id}`, form(s, { name: 'web-longer' }));
    await ok(long, 'DELETE', `/api/servers/${s.id}`);
    const flags = await ok(long, 'GET', `/api/knowledge-base/${item.id}`).then((i) => i.reviewFlags);
    expect(flags.map((f: { field: string }) => f.field)).toEqual(['name', 'deleted']);
    expect(flags[0].by).toBe(`${'F'.repeat(100)} ${'L'.repeat(99)}`);
  });

  it('a change through an API token is by "an agent"', async () => {
    const s = await server(ada, 'agent-1');
    const item = await linkedItem(owner, s.id, 'Agent runbook');
    const { token } = await createPersonalToken(t.db, ada.id, { name: 'cli', scope: 'read-write' });
    await ok(token, 'PUT', `/api/servers/${s.id}`, form(s, { operatingSystem: 'Debian 12' }));
    expect((await flagsOf(item.id))[0]).toMatchObject({ field: 'operatingSystem', by: 'an agent' });
    const [row] = await t.db.select().from(documentReviewFlags).where(eq(documentReviewFlags.documentId, item.id));
    expect(row.byId).toBeNull();
    expect((await told(item.id))[0].text).toMatch(
      /^An agent changed agent-1 \(operating system Ubuntu 22\.04 → Debian 12\)/,
    );
  });
});

describe('who hears of it', () => {
  it('the owner and watchers who may read it, once per change; not the actor, not one who lost access', async () => {
    const s = await server(ada, 'notify-1');
    const open = await linkedItem(owner, s.id, 'Open runbook');
    const closed = await linkedItem(owner, s.id, 'Restricted runbook');
    for (const id of [open.id, closed.id]) {
      for (const who of [watcher, outsider, ada]) await ok(who, 'PUT', `/api/knowledge-base/${id}/watch`);
    }
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, closed.id));
    await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { ipAddress: '127.0.1.7' }));
    const users = async (id: string) => (await told(id)).map((n) => n.userId).sort();
    expect(await users(open.id)).toEqual([owner.id, watcher.id, outsider.id].sort());
    // The restricted item: only its owner may read it, so only its owner hears.
    expect(await users(closed.id)).toEqual([owner.id]);
    const [n] = await told(open.id);
    expect(n.text).toBe('Ada Ops changed notify-1 (IP address 127.0.1.1 → 127.0.1.7): "Open runbook" may need review');
    expect(n.link).toBe(`/knowledge-base/${open.id}`);
    // A second change: one more each.
    await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { ipAddress: '127.0.1.8' }));
    expect(await users(open.id)).toHaveLength(6);
  });
});
