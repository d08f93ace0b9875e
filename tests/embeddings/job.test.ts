import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingsJob } from '../../jobs/embeddings';
import type { JobContext } from '../../jobs/define-job';
import { documents } from '../../src/db/schema';
import { setEmbeddingsEndpoint } from '../../src/embeddings/service';
import type { Logger } from '../../src/http/logger';
import { createTestApp, type TestContext } from '../helpers/app';
import { startFakeEmbeddings, type FakeEmbeddings } from './fake-embeddings';

let t: TestContext;
let fake: FakeEmbeddings;
const warnings: unknown[] = [];
const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;

const run = () =>
  embeddingsJob.run({
    db: t.db,
    database: t.database,
    config: t.config,
    logger,
    signal: new AbortController().signal,
    now: new Date(),
  } satisfies JobContext);

beforeAll(async () => {
  fake = await startFakeEmbeddings();
  t = await createTestApp();
  await t.db.insert(documents).values([
    { space: 'knowledge', title: 'Reboot guide', content: '## Steps\n\nReboot it.' },
    { space: 'documents', title: 'Disk layout', content: 'Volumes.' },
  ]);
});
afterAll(async () => {
  setEmbeddingsEndpoint(undefined, logger);
  await fake?.close();
  await t?.close();
});

describe('the embeddings job', () => {
  it('says how to turn it on when no endpoint is configured, and is off in the schedule', async () => {
    setEmbeddingsEndpoint(undefined, logger);
    expect(await run()).toBe('Not configured: set EMBEDDINGS_BASE_URL to search by meaning.');
    expect(embeddingsJob.schedule(t.config)).toBe('off');
    const on = await createTestApp({ EMBEDDINGS_BASE_URL: fake.url }, t.database);
    expect(embeddingsJob.schedule(on.config)).toBe('* * * * *');
    expect(on.config.embeddings).toMatchObject({ baseUrl: fake.url, model: 'nomic-embed-text', minSimilarity: 0.35 });
  });

  it('reports the backfill’s progress, and a failed endpoint with a warning', async () => {
    const config = {
      baseUrl: fake.url,
      model: 'fake-a',
      apiKey: undefined,
      minSimilarity: 0.35,
      queryTimeoutMs: 1_000,
    };
    setEmbeddingsEndpoint(config, logger);
    fake.mode = 'fail';
    expect(await run()).toMatch(
      /^Embedded 0 items\. 0 of 2 items embedded by fake-a, 2 to go\. Stopped: The embeddings endpoint failed: /,
    );
    expect(warnings).toHaveLength(1);
    fake.mode = 'ok';
    expect(await run()).toBe('Embedded 2 items. 2 of 2 items embedded by fake-a, 0 to go.');
    expect(await run()).toBe('Embedded 0 items. 2 of 2 items embedded by fake-a, 0 to go.');
  });
});
