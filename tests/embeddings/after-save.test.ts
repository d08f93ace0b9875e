import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingsListener, type EmbeddingsListener } from '../../jobs/embeddings-listener';
import { withJobLock } from '../../jobs/lock';
import { embeddingProgress, setEmbeddingsEndpoint } from '../../src/embeddings/service';
import type { Logger } from '../../src/http/logger';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeEmbeddings, type FakeEmbeddings } from './fake-embeddings';

/** A save is embedded within seconds (the documents trigger's NOTIFY wakes the listener), not at the next minute. */

let t: TestContext;
let fake: FakeEmbeddings;
let editor: TestUser;
let listener: EmbeddingsListener;
const logger = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as Logger;

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
};

const save = async (title: string) => {
  const res = await t.app.request(
    '/api/knowledge-base',
    jsonRequest('POST', { title, content: 'Reboot the host.', isPublished: true }, editor.cookie),
  );
  expect(res.status).toBe(201);
};

beforeAll(async () => {
  fake = await startFakeEmbeddings();
  t = await createTestApp();
  setEmbeddingsEndpoint(
    { baseUrl: fake.url, model: 'fake-a', apiKey: undefined, minSimilarity: 0.35, queryTimeoutMs: 1_000 },
    logger,
  );
  editor = await createSignedInUser(t.db, { role: 'editor' });
  listener = await startEmbeddingsListener(t.database, logger);
});
afterAll(async () => {
  await listener?.stop();
  setEmbeddingsEndpoint(undefined, logger);
  await fake?.close();
  await t?.close();
});

describe('embeddings after a save', () => {
  it('embeds a new item as soon as its save commits', async () => {
    await save('Payroll reboot');
    expect(await until(async () => (await embeddingProgress(t.db, 'fake-a')).embedded === 1)).toBe(true);
    expect(fake.requests.flatMap((r) => r.input).join(' ')).toContain('Payroll reboot');
  });

  it('leaves the item to the job while the job holds its lock (never two runs at once)', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const job = withJobLock(t.database, 'embeddings', () => held);
    await new Promise((r) => setTimeout(r, 50));
    const asked = fake.requests.length;
    await save('Mail relay reboot');
    await new Promise((r) => setTimeout(r, 500));
    expect(fake.requests.length).toBe(asked);
    expect((await embeddingProgress(t.db, 'fake-a')).pending).toBe(1);
    release();
    expect((await job).acquired).toBe(true);
  });
});
