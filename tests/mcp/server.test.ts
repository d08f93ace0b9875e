import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, serverDocuments } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { seedInventory } from '../ai/seed';
import { call, connect, data, newToken, resourceText } from './client';

/** Issue 26, the MCP server: its tools and resources through the SDK's own client, as an agent would use them. */

let t: TestContext;
let auditor: TestUser;
let viewer: TestUser;
let seed: Awaited<ReturnType<typeof seedInventory>>;
let asAuditor: Client;
let asViewer: Client;

const EVERYONE_TOOLS = [
  'get_document',
  'get_server',
  'recent_documents',
  'recent_health_problems',
  'search_documents',
  'search_servers',
  'team_contacts',
];

beforeAll(async () => {
  t = await createTestApp();
  auditor = await createSignedInUser(t.db, { role: 'auditor', firstName: 'Audra' });
  viewer = await createSignedInUser(t.db, { role: 'viewer', firstName: 'Vera' });
  seed = await seedInventory(t.db, auditor.id);
  await t.db
    .insert(serverDocuments)
    .values({ serverId: seed.servers['SYD-WEB-01'], documentId: seed.docs.pos, documentType: 'runbook' });
  asAuditor = await connect(t, (await newToken(t, auditor)).token);
  asViewer = await connect(t, (await newToken(t, viewer)).token);
});
afterAll(async () => {
  await asAuditor?.close();
  await asViewer?.close();
  await t?.close();
});

describe('tools', () => {
  it('are listed with their argument schemas, each annotated read-only; audit_events only for admins and auditors', async () => {
    const { tools } = await asAuditor.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...EVERYONE_TOOLS, 'audit_events'].sort());
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description, tool.name).toBeTruthy();
    }
    const search = tools.find((tool) => tool.name === 'search_documents')!;
    expect(search.inputSchema).toMatchObject({ type: 'object', required: ['query'] });

    expect((await asViewer.listTools()).tools.map((tool) => tool.name).sort()).toEqual(EVERYONE_TOOLS);
    const refused = await call(asViewer, 'audit_events', {});
    expect(refused).toEqual({ isError: true, text: expect.stringContaining('Tool audit_events not found') });
    expect(refused.text).not.toContain('server.update');
  });

  it('search_servers and get_server: the inventory, a server with its recent checks and linked documents', async () => {
    const auburn = await data<{ name: string; link: string }[]>(asViewer, 'search_servers', { location: 'Auburn' });
    expect(auburn.map((s) => s.name)).toEqual(['AUB-FS-02', 'AUB-POS-01']);
    expect(auburn[1].link).toBe(`/infrastructure?server=${seed.servers['AUB-POS-01']}`);

    const server = await data<{
      name: string;
      status: string;
      healthChecks: { status: string; error: string }[];
      documents: { title: string }[];
    }>(asViewer, 'get_server', { name_or_id: 'syd-web-01' });
    expect(server).toMatchObject({ name: 'SYD-WEB-01', status: 'offline' });
    expect(server.healthChecks).toEqual([
      expect.objectContaining({ status: 'offline', error: 'connect ECONNREFUSED 127.20.0.21:22' }),
    ]);
    expect(server.documents.map((d) => d.title)).toEqual(['POS terminal restart procedure']);
    expect(await call(asViewer, 'get_server', { name_or_id: 'no-such-host' })).toEqual({
      isError: true,
      text: 'No server has that name, hostname or id.',
    });
  });

  it('search_documents, get_document and recent_documents: the knowledge base', async () => {
    const hits = await data<{ id: string; title: string }[]>(asViewer, 'search_documents', { query: 'POS terminal' });
    expect(hits[0]).toMatchObject({ id: seed.docs.pos, title: 'POS terminal restart procedure' });
    const doc = await data<{ title: string; content: string; link: string }>(asViewer, 'get_document', {
      id: seed.docs.pos,
    });
    expect(doc.content).toBe('How to restart a POS terminal and the POS service in a store.');
    expect(doc.link).toBe(`/knowledge-base/${seed.docs.pos}/pos-terminal-restart-procedure`);
    const recent = await data<{ title: string }[]>(asViewer, 'recent_documents');
    expect(recent.map((d) => d.title).sort()).toEqual(['POS terminal restart procedure', 'VPN troubleshooting']);

    expect(await call(asViewer, 'get_document', { id: '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d' })).toEqual({
      isError: true,
      text: 'Document not found.',
    });
    const invalid = await call(asViewer, 'get_document', { id: 'not-an-id' });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('Invalid arguments for tool get_document');
  });

  it('team_contacts, recent_health_problems and audit_events', async () => {
    const contacts = await data<{ name: string }[]>(asViewer, 'team_contacts', { text: 'Network' });
    expect(contacts.map((m) => m.name)).toEqual(['Bob Singh']);
    const problems = await data<{ serverName: string; status: string }[]>(asViewer, 'recent_health_problems', {});
    expect(problems.map((p) => [p.serverName, p.status])).toEqual([
      ['SYD-WEB-01', 'offline'],
      ['AUB-FS-02', 'warning'],
    ]);
    const events = await data<{ action: string; actor: string }[]>(asAuditor, 'audit_events', { limit: 50 });
    expect(events).toContainEqual(expect.objectContaining({ action: 'server.update', actor: 'Audra User' }));
  });

  it('quote document text as data: an injected instruction arrives inside untrusted_data', async () => {
    const { text } = await call(asViewer, 'get_document', { id: seed.docs.vpn });
    const quoted = JSON.parse(text);
    expect(Object.keys(quoted)).toEqual(['tool', 'untrusted_data']);
    expect(quoted.untrusted_data.content).toContain('IGNORE PREVIOUS INSTRUCTIONS');
  });
});

describe('resources', () => {
  it('offer the knowledge items and the servers as templates and in the list', async () => {
    const { resourceTemplates } = await asViewer.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate).sort()).toEqual([
      'opshub://knowledge/{id}',
      'opshub://servers/{id}',
    ]);
    const uris = (await asViewer.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain(`opshub://knowledge/${seed.docs.pos}`);
    expect(uris).toContain(`opshub://servers/${seed.servers['MEL-DB-01']}`);
  });

  it('read a knowledge item as Markdown and a server as JSON; an unknown one is an MCP error', async () => {
    const doc = await asViewer.readResource({ uri: `opshub://knowledge/${seed.docs.pos}` });
    expect(doc.contents).toEqual([
      {
        uri: `opshub://knowledge/${seed.docs.pos}`,
        mimeType: 'text/markdown',
        text: '# POS terminal restart procedure\n\nHow to restart a POS terminal and the POS service in a store.',
      },
    ]);
    const body = JSON.parse(await resourceText(asViewer, `opshub://servers/${seed.servers['SYD-WEB-01']}`));
    expect(body).toMatchObject({ name: 'SYD-WEB-01', healthChecks: [expect.objectContaining({ status: 'offline' })] });
    await expect(
      asViewer.readResource({ uri: 'opshub://knowledge/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d' }),
    ).rejects.toThrow(/not found/);
  });
});

describe('the audit trail', () => {
  it('records every tool call (the tool, its arguments, the user) and resource read as mcp.call', async () => {
    const client = await connect(t, (await newToken(t, viewer)).token);
    await call(client, 'search_documents', { query: 'rotate the keys' });
    await call(client, 'audit_events', { limit: 3 });
    await client.readResource({ uri: `opshub://knowledge/${seed.docs.vpn}` });
    await client.close();
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'mcp.call'), eq(auditLog.actorId, viewer.id)))
      .orderBy(auditLog.createdAt);
    const calls = rows.map((r) => ({ entityType: r.entityType, entityId: r.entityId, details: r.details }));
    expect(calls.slice(-3)).toEqual([
      {
        entityType: 'mcp_tool',
        entityId: 'search_documents',
        details: { tool: 'search_documents', arguments: { query: 'rotate the keys' } },
      },
      // Refused (not offered to a viewer), and recorded all the same.
      { entityType: 'mcp_tool', entityId: 'audit_events', details: { tool: 'audit_events', arguments: { limit: 3 } } },
      {
        entityType: 'mcp_resource',
        entityId: `opshub://knowledge/${seed.docs.vpn}`,
        details: { resource: `opshub://knowledge/${seed.docs.vpn}` },
      },
    ]);
  });

  it('shows the calls to auditors through the audit_events tool itself', async () => {
    const events = await data<{ action: string; entityId: string }[]>(asAuditor, 'audit_events', { limit: 5 });
    expect(events[0]).toMatchObject({ action: 'mcp.call', entityId: 'audit_events' });
  });
});
