import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { searchDocuments } from '../../src/ai/tools';
import { documentChunks, documentEmbeddings, documents } from '../../src/db/schema';
import { embedder, embeddingProgress, embedDueItems, setEmbeddingsEndpoint } from '../../src/embeddings/service';
import type { Logger } from '../../src/http/logger';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { connect, data, newToken } from '../mcp/client';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeEmbeddings, type FakeEmbeddings } from './fake-embeddings';

/**
 * Issue 26, retrieval by meaning: with a fake embeddings endpoint on loopback (synonyms share a dimension), search
 * finds an item by a word full text cannot match, the backfill reports its progress, a model change embeds every
 * item again, and an endpoint that fails or stalls leaves full-text search as it was, with a warning.
 */

let t: TestContext;
let fake: FakeEmbeddings;
let admin: TestUser;
let viewer: TestUser;
const warnings: unknown[][] = [];
const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;

const REBOOT = {
  title: 'Payroll host maintenance',
  content: 'Intro text about payroll.\n\n## Reboot the payroll host\n\nDrain the queue, then reboot the host.\n',
};

const endpoint = (model = 'fake-a', queryTimeoutMs = 1_500) =>
  setEmbeddingsEndpoint({ baseUrl: fake.url, model, apiKey: undefined, minSimilarity: 0.35, queryTimeoutMs }, logger);

const create = async (item: { title: string; content: string }, user = admin) => {
  const res = await t.app.request(
    '/api/knowledge-base',
    jsonRequest('POST', { ...item, isPublished: true }, user.cookie),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; version: number };
};

const searchApi = async (q: string, user = admin) => {
  const res = await t.app.request(`/api/search?q=${encodeURIComponent(q)}`, jsonRequest('GET', undefined, user.cookie));
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; title: string; url: string }[];
};

const embedAll = () => embedDueItems(t.db, embedder()!);

beforeAll(async () => {
  fake = await startFakeEmbeddings();
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(async () => {
  setEmbeddingsEndpoint(undefined, logger);
  await fake?.close();
  await t?.close();
});
afterEach(() => {
  fake.mode = 'ok';
  warnings.length = 0;
  endpoint();
});

describe('search by meaning', () => {
  it('finds an item by a synonym full text cannot match, linking to the heading that matched', async () => {
    setEmbeddingsEndpoint(undefined, logger);
    const item = await create(REBOOT);
    expect(await searchApi('restart')).toEqual([]); // full text alone: "restart" is not "reboot"

    endpoint();
    expect(await searchApi('restart')).toEqual([]); // not embedded yet: nothing by meaning
    const run = await embedAll();
    expect(run).toMatchObject({ embedded: 1, failure: null });
    const hits = await searchApi('restart');
    expect(hits.map((h) => h.id)).toEqual([item.id]);
    expect(hits[0].url).toMatch(new RegExp(`/knowledge-base/${item.id}.*#reboot-the-payroll-host$`));

    // The assistant's and MCP's search quotes the matching part and cites its heading.
    const [hit] = await searchDocuments(t.db, { id: admin.id, role: 'admin' }, 'restart', 5);
    expect(hit.id).toBe(item.id);
    expect(hit.section?.heading).toBe('Reboot the payroll host');
    expect(hit.section?.link).toMatch(/#reboot-the-payroll-host$/);
    expect(hit.snippet).toContain('Drain the queue');

    // An agent over MCP gets the same hit and section.
    const agent = await connect(t, (await newToken(t, admin)).token);
    const viaMcp = await data<{ id: string; section?: { link: string } }[]>(agent, 'search_documents', {
      query: 'restart',
    });
    expect(viaMcp.map((h) => h.id)).toEqual([item.id]);
    expect(viaMcp[0].section?.link).toMatch(/#reboot-the-payroll-host$/);
    await agent.close();

    // Ops AI's built-in engine cites the section it found.
    const ask = await t.app.request(
      '/api/ai/ask',
      jsonRequest('POST', { query: 'Find documentation about restarting', conversationHistory: [] }, admin.cookie),
    );
    const { response } = (await ask.json()) as { response: string };
    expect(response).toContain(REBOOT.title);
    expect(response).toMatch(
      /\(section \[Reboot the payroll host\]\(\/knowledge-base\/[^)]*#reboot-the-payroll-host\)\)/,
    );
  });

  it('fuses both rankings: an item both find stays first, others by meaning follow; unrelated words find nothing', async () => {
    await create({ title: 'Certificate renewal', content: 'Renew the TLS certificate on the ADFS farm.' });
    await create({ title: 'Cert checklist', content: 'Renew the SSL cert.' });
    await embedAll();
    const hits = await searchApi('certificate');
    expect(hits.map((h) => h.title)).toEqual(['Certificate renewal', 'Cert checklist']);
    expect(await searchApi('zebra')).toEqual([]);
  });

  it('answers a reader only the items they may read', async () => {
    const own = await createSignedInUser(t.db, { role: 'editor' });
    const secret = await create({ title: 'Vault runbook', content: '## Rotate the passphrase\n\nUse the HSM.' }, own);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, secret.id));
    await embedAll();
    expect((await searchApi('password', own)).map((h) => h.id)).toContain(secret.id);
    expect((await searchApi('password', viewer)).map((h) => h.id)).not.toContain(secret.id);
    const asViewer = await searchDocuments(t.db, { id: viewer.id, role: 'viewer' }, 'credential', 8);
    expect(asViewer.map((h) => h.id)).not.toContain(secret.id);
  });
});

describe('backfill and model change', () => {
  it('reports progress, embeds changed items again on save, and everything again for a new model', async () => {
    await embedAll();
    for (let i = 0; i < 4; i++) await create({ title: `Disk runbook ${i}`, content: `Grow volume ${i} on the SAN.` });
    const before = await embeddingProgress(t.db, 'fake-a');
    expect(before.pending).toBe(4);

    expect(await embedDueItems(t.db, embedder()!, { maxItems: 3 })).toMatchObject({ embedded: 3 });
    const res = await t.app.request('/api/admin/embeddings', jsonRequest('GET', undefined, admin.cookie));
    expect(await res.json()).toMatchObject({ configured: true, model: 'fake-a', pending: 1 });
    expect((await t.app.request('/api/admin/embeddings', jsonRequest('GET', undefined, viewer.cookie))).status).toBe(
      403,
    );
    await embedAll();
    expect(await embeddingProgress(t.db, 'fake-a')).toMatchObject({ pending: 0, refused: 0 });

    // A save re-embeds only that item.
    const [one] = await t.db.select().from(documents).where(eq(documents.title, 'Disk runbook 0'));
    const put = await t.app.request(
      `/api/knowledge-base/${one.id}`,
      jsonRequest('PUT', { title: one.title, content: 'Grow the storage pool.', version: one.version }, admin.cookie),
    );
    expect(put.status).toBe(200);
    fake.requests.length = 0;
    expect(await embedAll()).toMatchObject({ embedded: 1 });
    expect(fake.requests.flatMap((r) => r.input).join(' ')).toContain('Grow the storage pool');

    // A new model: everything is due again, embedded with it; the old model's chunks are replaced.
    endpoint('fake-b');
    const items = (await embeddingProgress(t.db, 'fake-b')).items;
    expect(await embeddingProgress(t.db, 'fake-b')).toMatchObject({ embedded: 0, pending: items });
    fake.requests.length = 0;
    expect(await embedAll()).toMatchObject({ embedded: items });
    expect(new Set(fake.requests.map((r) => r.model))).toEqual(new Set(['fake-b']));
    const models = await t.db.selectDistinct({ model: documentChunks.model }).from(documentChunks);
    expect(models).toEqual([{ model: 'fake-b' }]);
    expect((await searchApi('restart')).map((h) => h.title)).toContain(REBOOT.title);
  });

  it('records a text the endpoint refuses, without trying it again until it changes', async () => {
    fake.mode = 'refuse';
    const item = await create({ title: 'Huge export', content: 'REFUSE-ME' });
    expect(await embedAll()).toMatchObject({ refused: 1, failure: null });
    const [state] = await t.db.select().from(documentEmbeddings).where(eq(documentEmbeddings.documentId, item.id));
    expect(state.error).toMatch(/refused the text \(400\)/);
    fake.requests.length = 0;
    expect(await embedAll()).toMatchObject({ embedded: 0, refused: 0 });
    expect(fake.requests).toEqual([]);
    expect(await embeddingProgress(t.db, 'fake-a')).toMatchObject({ refused: 1, pending: 0 });
  });
});

describe('an item purged while it is being embedded', () => {
  it('is skipped: the run goes on, and nothing of it is stored', async () => {
    await embedAll();
    const gone = await create({ title: 'Short-lived note', content: 'About to be purged.' });
    const kept = await create({ title: 'Kept note', content: 'Stays.' });
    fake.beforeAnswer = async () => {
      fake.beforeAnswer = undefined;
      await t.db.delete(documents).where(eq(documents.id, gone.id)); // after the run read both
    };
    expect(await embedAll()).toMatchObject({ failure: null });
    expect(await t.db.select().from(documentChunks).where(eq(documentChunks.documentId, gone.id))).toEqual([]);
    expect(await t.db.select().from(documentEmbeddings).where(eq(documentEmbeddings.documentId, gone.id))).toEqual([]);
    expect(
      (await t.db.select().from(documentEmbeddings).where(eq(documentEmbeddings.documentId, kept.id))).length,
    ).toBe(1);
  });
});

describe('an endpoint that fails', () => {
  it('never blocks a save, stops the backfill run, and search answers by full text with a warning', async () => {
    await embedAll();
    fake.mode = 'fail';
    const item = await create({ title: 'Restart the mail relay', content: 'Bounce postfix.' });
    const run = await embedAll();
    expect(run.failure).toMatch(/failed/);
    expect(run.embedded).toBe(0);
    expect(await embeddingProgress(t.db, 'fake-a')).toMatchObject({ pending: 1 });

    const hits = await searchApi('restart mail');
    expect(hits.map((h) => h.id)).toEqual([item.id]); // full text
    expect(JSON.stringify(warnings)).toContain('searching by full text only');

    fake.mode = 'ok';
    expect(await embedAll()).toMatchObject({ embedded: 1, failure: null });
  });

  it('a stalled endpoint costs a search its timeout at most, then none while paused', async () => {
    endpoint('fake-a', 300);
    fake.mode = 'stall';
    const started = Date.now();
    const hits = await searchApi('relay');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hits.map((h) => h.title)).toContain('Restart the mail relay');
    expect(warnings.length).toBe(1);
    const asked = fake.requests.length;
    await searchApi('mail');
    expect(fake.requests.length).toBe(asked); // paused: not asked again
  });
});

describe('no endpoint configured', () => {
  it('answers by full text exactly as before, and the progress API says it is off', async () => {
    setEmbeddingsEndpoint(undefined, logger);
    fake.requests.length = 0;
    expect(await searchApi('recycle')).toEqual([]);
    expect((await searchApi('mail relay')).map((h) => h.title)).toEqual(['Restart the mail relay']);
    expect(fake.requests).toEqual([]);
    const res = await t.app.request('/api/admin/embeddings', jsonRequest('GET', undefined, admin.cookie));
    expect(await res.json()).toEqual({ configured: false });
  });
});
