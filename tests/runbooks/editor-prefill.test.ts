import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../src/db/schema';
import { NO_SERVER_NOTICE } from '../../src/knowledge/editor-pages';
import { contentOf } from '../../src/knowledge/shared';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let editor: TestUser;
let viewer: TestUser;
let db1: typeof servers.$inferSelect;

const get = (url: string, user = editor) => t.app.request(url, { headers: { Cookie: user.cookie } });

/** The DocumentEditor island's props, as the page hands them over. */
function islandProps(html: string) {
  const m = /<app-island data-name="DocumentEditor"[^>]*data-props="([^"]*)"/.exec(html);
  if (!m) throw new Error('no DocumentEditor island');
  const json = m[1]
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(json);
}

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  [db1] = await t.db
    .insert(servers)
    .values({
      name: 'db-prefill-01',
      ipAddress: '127.0.0.51',
      hostname: 'db-prefill-01.corp.example.com',
      environment: 'production',
      operatingSystem: 'Debian 12',
      serverType: 'virtual',
      primaryFunction: 'PostgreSQL',
      network: 'Secure Zone',
      teamOwner: 'Data',
      status: 'online',
    })
    .returning();
});
afterAll(() => t.close());

describe('/knowledge-base/new?server=ID', () => {
  it('hands a build document the form pre-filled from the server, its markdown, and the server to link', async () => {
    const res = await get(`/knowledge-base/new?type=build-document&server=${db1.id}`);
    expect(res.status).toBe(200);
    const props = islandProps(await res.text());
    expect(props.kind).toBe('build-document');
    const { fields, servers: linked } = props.prefill;
    expect(fields).toMatchObject({
      title: 'Build document: db-prefill-01',
      templateType: 'build_document',
      category: 'build',
      form: {
        kind: 'build',
        serverName: 'db-prefill-01',
        buildEngineer: 'Ada Lovelace',
        environment: 'Production',
        serverType: 'Virtual',
        osVersion: 'Debian 12',
        serverPurpose: 'Primary function: PostgreSQL',
        networkRequirements:
          'Network zone: Secure Zone; IP address: 127.0.0.51; Hostname: db-prefill-01.corp.example.com',
        dependencies: 'Team owner: Data',
      },
    });
    expect(fields.form.buildSteps).toHaveLength(1);
    expect(fields.content).toBe(contentOf(fields.form, fields.title));
    expect(fields.content).toContain('| Server Name | db-prefill-01 |');
    expect(linked).toEqual([
      expect.objectContaining({ id: db1.id, name: 'db-prefill-01', status: 'online', environment: 'production' }),
    ]);
  });

  it('hands a runbook (and a document) only the server to link', async () => {
    for (const url of [
      `/knowledge-base/new?type=work-instruction&server=${db1.id}`,
      `/documents/new?server=${db1.id}`,
    ]) {
      const props = islandProps(await (await get(url)).text());
      expect(props.prefill.fields, url).toEqual({});
      expect(
        props.prefill.servers.map((s: { id: string }) => s.id),
        url,
      ).toEqual([db1.id]);
    }
  });

  it('opens the empty editor with a notice when the server is not there, and no prefill without ?server=', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await get(`/knowledge-base/new?type=build-document&server=${id}`);
      expect(res.status, id).toBe(200);
      const html = await res.text();
      expect(html, id).toContain(NO_SERVER_NOTICE);
      expect(islandProps(html).prefill, id).toBeUndefined();
    }
    const plain = await (await get('/knowledge-base/new?type=build-document')).text();
    expect(plain).not.toContain(NO_SERVER_NOTICE);
    expect(islandProps(plain).prefill).toBeUndefined();
  });

  it('refuses a viewer (403) as /new always does', async () => {
    expect((await get(`/knowledge-base/new?type=build-document&server=${db1.id}`, viewer)).status).toBe(403);
  });
});
