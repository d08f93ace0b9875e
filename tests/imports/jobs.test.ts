import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { importJobs, users } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { finishJob, runImportJob } from '../../src/imports/run';
import { importReport, savePreview, sweepImports } from '../../src/imports/service';
import { createItem } from '../../src/knowledge/service';
import { createTestDatabase } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';
import { PNG } from './zips';

/** The job's robustness: a runner that stops mid-job, two runners at once, a job given up, its creator demoted. */

let database: Database;
let actor: { id: string; role: string };
const logger = createLogger('silent');

beforeAll(async () => {
  database = await createTestDatabase();
  actor = { ...(await createSignedInUser(database.db, { role: 'editor' })), role: 'editor' };
});
afterAll(() => database.close());

const enc = new TextEncoder();
let batch = 0;

/** A queued job of `n` Markdown files (titles unique to this call), each showing the same image. */
async function queuedJob(n: number, by = actor): Promise<string> {
  batch++;
  const files = Array.from({ length: n }, (_, i) => ({
    name: `f${i}.md`,
    bytes: enc.encode(`# Batch ${batch} file ${i}\n\n![p](p.png)`),
  }));
  return queue(await savePreview(database.db, [...files, { name: 'p.png', bytes: PNG }], 'knowledge', by));
}

/** A queued job of `n` files, each showing an image of its own (other bytes, so another object). */
async function jobOfOwnImages(n: number): Promise<string> {
  batch++;
  const files = Array.from({ length: n }, (_, i) => [
    { name: `f${i}.md`, bytes: enc.encode(`# Batch ${batch} file ${i}\n\n![p](p${i}.png)`) },
    { name: `p${i}.png`, bytes: Buffer.concat([PNG, Buffer.from(`batch ${batch} image ${i}`)]) },
  ]);
  return queue(await savePreview(database.db, files.flat(), 'knowledge', actor));
}

const queue = async (id: string) => {
  await database.db.update(importJobs).set({ status: 'queued' }).where(eq(importJobs.id, id));
  return id;
};

const countObjects = async () =>
  Number((await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from objects`))[0].n);

/** A signal that reads as aborted after the runner has asked `files` times (it asks once before each file). */
const stopAfter = (files: number) => {
  let asked = 0;
  return {
    get aborted() {
      return ++asked > files;
    },
  } as AbortSignal;
};

const expireLease = (id: string) =>
  database.db.update(importJobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(importJobs.id, id));

const itemsTitled = async (prefix: string) =>
  (
    await queryRows<{ title: string }>(
      database.db,
      sql`select title from documents where title like ${`${prefix}%`} order by title`,
    )
  ).map((r) => r.title);

describe('an import job', () => {
  it('stopped mid-job, is resumed by the sweep at the first file not done: each file once, one image', async () => {
    const id = await queuedJob(5);
    await runImportJob(database.db, id, logger, { signal: stopAfter(2) });
    let job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'running', done: 2, created: 2 });

    // Its lease still runs: a sweep leaves it to its runner.
    expect((await sweepImports(database.db, logger)).resumed).toBe(0);
    await expireLease(id);
    expect((await sweepImports(database.db, logger)).resumed).toBe(1);
    job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'done', done: 5, total: 5, created: 5, errors: 0 });
    expect(await itemsTitled(`Batch ${batch} `)).toHaveLength(5);
    const images = new Set(job.items.map((e) => e.itemId));
    expect(images.size).toBe(5);
    const objectIds = await queryRows<{ n: number }>(
      database.db,
      sql`select count(distinct substring(content from '/objects/([0-9a-f-]{36})'))::int as n from documents
          where title like ${`Batch ${batch} %`}`,
    );
    expect(Number(objectIds[0].n)).toBe(1);
    const [row] = await database.db.select({ upload: importJobs.upload }).from(importJobs).where(eq(importJobs.id, id));
    expect(row.upload).toBeNull();
  });

  it('a runner that lost a file to another (its lease ran out after its title check) saves nothing for it', async () => {
    // Runner A checks file 1's title; then its lease runs out and runner B does exactly that one file. A, going on
    // with file 1, finds `done` moved on: its transaction rolls back and it stops. (The title, checked again under
    // its lock, is taken by now; without the `done = index` guard A would still count file 1 once more as skipped.)
    const id = await queuedJob(3);
    await runImportJob(database.db, id, logger, {
      afterCheck: async (index) => {
        if (index !== 1) return;
        await expireLease(id);
        await runImportJob(database.db, id, logger, { signal: stopAfter(1) });
        expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'running', done: 2, created: 2 });
      },
    });
    let job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'running', done: 2, created: 2, skipped: 0 });
    expect(job.items[1]).toMatchObject({ action: 'create', itemId: expect.any(String) });
    await expireLease(id);
    await sweepImports(database.db, logger);
    job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'done', done: 3, total: 3, created: 3, skipped: 0, errors: 0 });
    expect(await itemsTitled(`Batch ${batch} `)).toHaveLength(3);
  });

  it('a runner whose lease ran out and was taken over saves nothing more: its next file rolls back, it stops', async () => {
    // Runner A checks file 1's title (free) and is about to save it, with its image, when its lease runs out. Runner
    // B then does exactly file 1 (it skips it: a same-titled item exists just then, deleted right after). A's title
    // checks pass, so only the `done = index` guard stops it: its item and image must roll back.
    const id = await jobOfOwnImages(3);
    const objectsBefore = await countObjects();
    const title = `Batch ${batch} file 1`;
    await runImportJob(database.db, id, logger, {
      afterCheck: async (index) => {
        if (index !== 1) return;
        const other = await createItem(database.db, 'knowledge', { title, content: 'in the way' }, actor.id);
        await expireLease(id);
        await runImportJob(database.db, id, logger, { signal: stopAfter(1) });
        await database.db.execute(sql`update documents set deleted_at = now() where id = ${other.id}`);
      },
    });
    const job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'running', done: 2, created: 1, skipped: 1 });
    expect(job.items[1]).toMatchObject({ action: 'skip', reason: expect.stringContaining('already exists') });
    const live = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from documents where title = ${title} and deleted_at is null`,
    );
    expect(Number(live[0].n)).toBe(0);
    expect(await countObjects()).toBe(objectsBefore + 1); // file 0's image only

    await expireLease(id);
    await sweepImports(database.db, logger);
    expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'done', created: 2, skipped: 1 });
    expect(await countObjects()).toBe(objectsBefore + 2);
  });

  it('two jobs importing the same title: the second checks it again under its lock and skips it', async () => {
    batch++;
    const file = { name: 'same.md', bytes: enc.encode(`# Batch ${batch} same title\n\ntext`) };
    const other = { ...(await createSignedInUser(database.db, { role: 'editor' })), role: 'editor' };
    const first = await queue(await savePreview(database.db, [file], 'knowledge', actor));
    const second = await queue(await savePreview(database.db, [file], 'knowledge', other));
    await runImportJob(database.db, first, logger, {
      // Job 1 found the title free; job 2 imports it before job 1 saves.
      afterCheck: () => runImportJob(database.db, second, logger),
    });
    expect(await importReport(database.db, second, other)).toMatchObject({ status: 'done', created: 1 });
    expect(await importReport(database.db, first, actor)).toMatchObject({ status: 'done', created: 0, skipped: 1 });
    expect(await itemsTitled(`Batch ${batch} `)).toEqual([`Batch ${batch} same title`]);
  });

  it('abandoned with no progress for over an hour is given up: the files not done are listed as not imported', async () => {
    const id = await queuedJob(3);
    await runImportJob(database.db, id, logger, { signal: stopAfter(1) });
    await database.db
      .update(importJobs)
      .set({ startedAt: sql`now() - interval '2 hours'`, lockedUntil: sql`now() - interval '1 minute'` })
      .where(eq(importJobs.id, id));
    expect((await sweepImports(database.db, logger)).failed).toBe(1);
    const job = await importReport(database.db, id, actor);
    expect(job).toMatchObject({ status: 'failed', done: 1, total: 3, created: 1, skipped: 0, errors: 2 });
    expect(job.items.slice(1).map((e) => [e.action, e.reason?.startsWith('Not imported: the import stopped')])).toEqual(
      [
        ['error', true],
        ['error', true],
      ],
    );
  });

  it('the hour is counted from its last progress, not its start: a long job that moved on lately is resumed', async () => {
    const id = await queuedJob(3);
    // Started two hours ago (claimed then), it has just done a file, and then its runner stopped.
    await database.db
      .update(importJobs)
      .set({
        status: 'running',
        startedAt: sql`now() - interval '2 hours'`,
        lockedUntil: sql`now() - interval '1 second'`,
      })
      .where(eq(importJobs.id, id));
    await runImportJob(database.db, id, logger, { signal: stopAfter(1) });
    await expireLease(id);
    expect(await sweepImports(database.db, logger)).toMatchObject({ failed: 0, resumed: 1 });
    expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'done', created: 3 });
  });

  it('is not given up once a runner has claimed it again (the sweep checks the lease under the row lock)', async () => {
    const id = await queuedJob(2);
    await runImportJob(database.db, id, logger, { signal: stopAfter(1) });
    // The sweep saw it abandoned; before it gives up, a runner claims it (a fresh lease).
    await database.db
      .update(importJobs)
      .set({ startedAt: sql`now() - interval '2 hours'`, lockedUntil: sql`now() + interval '2 minutes'` })
      .where(eq(importJobs.id, id));
    expect(await finishJob(database.db, id, 'given up', true)).toBe(false);
    expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'running', done: 1 });
    await expireLease(id);
    expect(await finishJob(database.db, id, 'given up', true)).toBe(true);
    expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'failed', created: 1, errors: 1 });
  });

  it('fails clearly when its creator may no longer import', async () => {
    const someone = { ...(await createSignedInUser(database.db, { role: 'editor' })), role: 'editor' };
    const id = await queuedJob(2, someone);
    await database.db.update(users).set({ role: 'viewer' }).where(eq(users.id, someone.id));
    await runImportJob(database.db, id, logger);
    const [job] = await database.db.select().from(importJobs).where(eq(importJobs.id, id));
    expect(job.status).toBe('failed');
    // Counts add up: nothing created or skipped, every file an error.
    expect(await importReport(database.db, id, someone)).toMatchObject({ total: 2, created: 0, skipped: 0, errors: 2 });
    expect(job.report.map((e) => e.reason)).toEqual([
      'Not imported: the account that started the import may no longer import.',
      'Not imported: the account that started the import may no longer import.',
    ]);
    expect(await itemsTitled(`Batch ${batch} `)).toEqual([]);
  });

  it('a preview counts its errors (the whole plan), not only the files done', async () => {
    const id = await savePreview(
      database.db,
      [
        { name: 'ok.md', bytes: enc.encode('# A fine preview file\n\ntext') },
        { name: 'bad.md', bytes: enc.encode('---\ntitle: [oops\n---\nx') },
      ],
      'knowledge',
      actor,
    );
    expect(await importReport(database.db, id, actor)).toMatchObject({ status: 'preview', total: 2, errors: 1 });
    await database.db.delete(importJobs).where(eq(importJobs.id, id));
  });

  it('previews left for a day are forgotten by the sweep', async () => {
    const id = await savePreview(
      database.db,
      [{ name: 'old.md', bytes: enc.encode('# Old preview') }],
      'knowledge',
      actor,
    );
    await database.db
      .update(importJobs)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(importJobs.id, id));
    expect((await sweepImports(database.db, logger)).forgotten).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(importJobs).where(eq(importJobs.id, id))).toEqual([]);
  });
});
