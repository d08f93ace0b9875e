import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, serverDocuments, servers } from '../../src/db/schema';
import { contentOf, parseFormModel } from '../../src/knowledge/shared';
import { buildDocumentFor } from '../../src/runbooks/build-document';
import { getServer } from '../../src/servers/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let editor: TestUser;
let owner: TestUser;
let viewer: TestUser;
let web: typeof servers.$inferSelect;

async function call(path: string, user: TestUser) {
  const res = await t.app.request(path, jsonRequest('GET', undefined, user.cookie));
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
  owner = await createSignedInUser(t.db, { firstName: 'Grace', lastName: 'Hopper' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  [web] = await t.db
    .insert(servers)
    .values({
      name: 'web-build-01',
      hostname: 'web-build-01.corp.example.com',
      ipAddress: '127.0.0.41',
      domain: 'corp.example.com',
      network: 'DMZ',
      environment: 'staging',
      operatingSystem: 'Ubuntu 24.04 LTS',
      serverType: 'physical',
      hardwareModel: 'Lenovo SR650 V3',
      primaryFunction: 'Web server',
      secondaryFunction: 'Reverse proxy',
      teamOwner: 'Platform',
      keyContacts: 'Ada Lovelace, Alan Turing',
      managedBy: 'Ops',
    })
    .returning();
});
afterAll(() => t.close());

describe('GET /api/servers/{id} carries its documents', () => {
  it('lists the linked documents the asking user may read, and leaves out a restricted one they may not', async () => {
    const [open, secret, deleted] = await t.db
      .insert(documents)
      .values([
        { space: 'knowledge', title: 'Restart web', content: 'x', templateType: 'work_instruction' },
        { space: 'documents', title: 'Secret build sheet', content: 'x', visibility: 'restricted', ownerId: owner.id },
        { space: 'knowledge', title: 'Deleted runbook', content: 'x', deletedAt: new Date() },
      ])
      .returning();
    await t.db.insert(serverDocuments).values([
      { serverId: web.id, documentId: open.id, documentType: 'work-instruction' },
      { serverId: web.id, documentId: secret.id, documentType: 'document' },
      { serverId: web.id, documentId: deleted.id, documentType: 'knowledge-base' },
    ]);
    const titles = (body: { documents: { title: string }[] }) => body.documents.map((d) => d.title);

    const ownerView = await call(`/api/servers/${web.id}`, owner);
    expect(ownerView.status).toBe(200);
    expect(ownerView.body).toMatchObject({ id: web.id, name: 'web-build-01', ipAddress: '127.0.0.41' });
    expect(titles(ownerView.body)).toEqual(['Restart web', 'Secret build sheet']);
    expect(ownerView.body.documents[0]).toMatchObject({
      documentId: open.id,
      documentType: 'work-instruction',
      space: 'knowledge',
      serverId: web.id,
    });
    expect(titles((await call(`/api/servers/${web.id}`, editor)).body)).toEqual(['Restart web']);
    expect(titles((await call(`/api/servers/${web.id}`, viewer)).body)).toEqual(['Restart web']);
    await t.db.delete(serverDocuments);
    expect((await call(`/api/servers/${web.id}`, editor)).body.documents).toEqual([]);
  });

  it('answers 404 for an unknown server and 401 when signed out', async () => {
    expect((await call('/api/servers/00000000-0000-4000-8000-000000000000', editor)).status).toBe(404);
    expect((await t.app.request(`/api/servers/${web.id}`)).status).toBe(401);
  });
});

describe('POST /api/servers/{id}/documents without a documentType', () => {
  it("types the link after the item: a knowledge item's kind, or 'document'", async () => {
    const [build, doc] = await t.db
      .insert(documents)
      .values([
        { space: 'knowledge', title: 'Build web', content: 'x', templateType: 'build_document' },
        { space: 'documents', title: 'Plain doc', content: 'x' },
      ])
      .returning();
    for (const d of [build, doc]) {
      const res = await t.app.request(
        `/api/servers/${web.id}/documents`,
        jsonRequest('POST', { documentId: d.id }, editor.cookie),
      );
      expect(res.status).toBe(201);
    }
    const { body } = await call(`/api/servers/${web.id}`, editor);
    expect(body.documents.map((d: { title: string; documentType: string }) => [d.title, d.documentType])).toEqual([
      ['Build web', 'build-document'],
      ['Plain doc', 'document'],
    ]);
    await t.db.delete(serverDocuments);
  });
});

describe('GET /api/servers/{id}/build-document', () => {
  it('answers the build form pre-filled from the record, the asking user as build engineer', async () => {
    const { status, body } = await call(`/api/servers/${web.id}/build-document`, editor);
    expect(status).toBe(200);
    expect(body).toEqual({
      kind: 'build',
      serverName: 'web-build-01',
      buildEngineer: 'Ada Lovelace',
      environment: 'Staging',
      serverType: 'Physical (Lenovo SR650 V3)',
      osVersion: 'Ubuntu 24.04 LTS',
      serverPurpose: 'Primary function: Web server\nSecondary function: Reverse proxy',
      keyServices: '',
      networkRequirements:
        'Network zone: DMZ; Domain: corp.example.com; IP address: 127.0.0.41; Hostname: web-build-01.corp.example.com',
      storageRequirements: '',
      accessRequired: '',
      toolsNeeded: '',
      dependencies: 'Team owner: Platform; Key contacts: Ada Lovelace, Alan Turing; Managed by: Ops',
      buildSteps: [
        {
          stepNumber: 1,
          title: '',
          objective: '',
          actions: [''],
          commands: '',
          expectedResult: '',
          screenshots: [],
        },
      ],
      postBuildTasks: [''],
      troubleshootingNotes: ['Escalate to Platform (key contacts: Ada Lovelace, Alan Turing).'],
      completionChecklist: [''],
    });
    // The editor reads it back unchanged, and its markdown carries the facts.
    expect(parseFormModel(body)).toEqual(body);
    const markdown = contentOf(body, 'Build document: web-build-01');
    expect(markdown).toContain('| Environment | Staging |');
    expect(markdown).toContain('**Network Requirements:** Network zone: DMZ');
  });

  it('maps every environment to the form options and leaves missing facts empty', async () => {
    const [bare] = await t.db.insert(servers).values({ name: 'bare-01', environment: 'production' }).returning();
    const { body } = await call(`/api/servers/${bare.id}/build-document`, editor);
    expect(body).toMatchObject({
      serverName: 'bare-01',
      environment: 'Production',
      serverType: '',
      osVersion: '',
      serverPurpose: '',
      networkRequirements: '',
      dependencies: '',
      troubleshootingNotes: [''],
    });
    const dev = (await getServer(t.db, bare.id))!;
    expect(buildDocumentFor({ ...dev, environment: 'development' }, 'x').environment).toBe('Development');
    expect(buildDocumentFor({ ...dev, serverType: 'virtual' }, 'x').serverType).toBe('Virtual');
    expect(buildDocumentFor({ ...dev, keyContacts: 'Bob' }, 'x').troubleshootingNotes).toEqual([
      'Escalate to the key contacts: Bob.',
    ]);
    expect(
      buildDocumentFor({ ...dev, primaryFunction: 'DNS', description: 'Resolves corp names.' }, 'x').serverPurpose,
    ).toBe('Primary function: DNS\n\nResolves corp names.');
  });

  it('refuses a viewer (403), answers 404 for an unknown server and 401 signed out', async () => {
    const refused = await call(`/api/servers/${web.id}/build-document`, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not have permission to access this page.');
    const missing = await call('/api/servers/00000000-0000-4000-8000-000000000000/build-document', editor);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Server not found.');
    expect((await call('/api/servers/nope/build-document', editor)).status).toBe(404);
    expect((await t.app.request(`/api/servers/${web.id}/build-document`)).status).toBe(401);
  });
});
