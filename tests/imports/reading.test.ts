import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { importJobs } from '../../src/db/schema';
import { uploadsInProgress } from '../../src/imports/service';
import { inflatedBytes } from '../../src/imports/zip';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { PNG, uploadRequest, zip } from './zips';

/**
 * How an upload is read: each entry inflated once (however many files show an image), the event loop let go between
 * files, two uploads at a time per process, one preview kept per user, and limits met while the body streams in.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const enc = new TextEncoder();
const editor = () => createSignedInUser(t.db, { role: 'editor' });
const post = (query: string, files: { name: string; body: Uint8Array | string }[], user: TestUser) =>
  t.app.request(`/api/import?${query}`, uploadRequest(files, user.cookie));
const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

/** Three 1 MB images (random bytes after a PNG signature: they do not compress), and `n` files showing all three. */
function manyFilesFewImages(n: number, prefix: string) {
  const files: Record<string, string | Uint8Array> = {};
  for (const name of ['a', 'b', 'c']) files[`img/${name}.png`] = Buffer.concat([PNG, randomBytes(1024 * 1024)]);
  for (let i = 0; i < n; i++) {
    files[`docs/d${i}.md`] = `# ${prefix} ${i}\n\n![a](../img/a.png) ![b](../img/b.png)\n\n<img src=../img/c.png>`;
  }
  const distinct = Object.values(files).reduce(
    (sum, body) => sum + (typeof body === 'string' ? enc.encode(body).length : body.length),
    0,
  );
  return { body: zip(files), distinct };
}

describe('images shown by many files', () => {
  it('are inflated once per upload, and other requests are served while the preview reads', async () => {
    const user = await editor();
    const { body, distinct } = manyFilesFewImages(300, 'Shared images');
    const before = inflatedBytes();
    let finished = false;
    const preview = Promise.resolve(post('space=knowledge&dryRun=true', [{ name: 'many.zip', body }], user)).finally(
      () => {
        finished = true;
      },
    );
    // Meanwhile: requests that need the database, one after the other, each noting how far the reading was.
    const served: [number, number][] = [];
    while (!finished) {
      const start = inflatedBytes();
      expect((await t.app.request('/readyz')).status).toBe(200);
      served.push([start, inflatedBytes()]);
      await tick();
    }
    const res = await preview;
    expect(res.status, await res.clone().text()).toBe(200);
    const { items } = (await res.json()) as { items: { action: string }[] };
    expect(items.filter((e) => e.action === 'create')).toHaveLength(300);
    // Every entry once: 300 × 3 MB would have been 900 MB (and refused past 200 MB).
    const total = inflatedBytes() - before;
    expect(total).toBe(distinct);
    // Some request began after the reading had begun and was answered before it ended.
    expect(served.some(([start, end]) => start > before && end < before + total)).toBe(true);
  });

  it('are inflated once by the job as well, and stored once', async () => {
    const user = await editor();
    const { body, distinct } = manyFilesFewImages(30, 'Job images');
    const objectsBefore = await count(sql`select count(*)::int as n from objects`);
    const before = inflatedBytes();
    const res = await post('space=knowledge&dryRun=false', [{ name: 'job.zip', body }], user);
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    let report = { status: '' } as { status: string; created: number };
    for (let i = 0; i < 400 && report.status !== 'done'; i++) {
      await tick(50);
      report = await (await t.app.request(`/api/import/${jobId}`, jsonRequest('GET', undefined, user.cookie))).json();
    }
    expect(report).toMatchObject({ status: 'done', created: 30 });
    // Once to plan the upload, once to run it.
    expect(inflatedBytes() - before).toBe(2 * distinct);
    expect(await count(sql`select count(*)::int as n from objects`)).toBe(objectsBefore + 3);
  });
});

const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(t.db, query))[0].n);

const BOUNDARY = 'import-test-boundary';
const part = (name: string, text: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/markdown\r\n\r\n${text}\r\n`;

/** An upload whose body is sent in parts by the test: `send` more, `end` it. */
function streamedUpload(user: TestUser, query = 'space=knowledge&dryRun=true') {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
    },
  });
  const response = t.app.request(
    new Request(`${TEST_ORIGIN}/api/import?${query}`, {
      method: 'POST',
      headers: {
        Origin: TEST_ORIGIN,
        Cookie: user.cookie,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  return {
    response: Promise.resolve(response),
    send: (text: string) => controller.enqueue(enc.encode(text)),
    end: () => {
      controller.enqueue(enc.encode(`--${BOUNDARY}--\r\n`));
      controller.close();
    },
    cancelled: () => cancelled,
  };
}

describe('the load one process takes', () => {
  it('reads two uploads at a time: a third is answered 503 with Retry-After before its body is read', async () => {
    const [one, two, three] = await Promise.all([editor(), editor(), editor()]);
    const first = streamedUpload(one);
    const second = streamedUpload(two);
    first.send(part('slow-1.md', '# Slow one'));
    second.send(part('slow-2.md', '# Slow two'));
    for (let i = 0; i < 200 && uploadsInProgress() < 2; i++) await tick(5);
    expect(uploadsInProgress()).toBe(2);

    const refused = await post('space=knowledge&dryRun=true', [{ name: 'a.md', body: '# a' }], three);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/other imports.*try again/);

    first.end();
    second.end();
    for (const { response } of [first, second]) {
      const res = await response;
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(uploadsInProgress()).toBe(0);
    expect((await post('space=knowledge&dryRun=true', [{ name: 'a.md', body: '# a' }], three)).status).toBe(200);
  });

  it('stops reading a body at its 2,001st file: 413 while the rest has not even been sent', async () => {
    const user = await editor();
    const upload = streamedUpload(user);
    upload.send(Array.from({ length: 2001 }, (_, i) => part(`f${i}.md`, '# x')).join(''));
    upload.send(part('never-ending.md', '# more is coming')); // the body is never ended
    const res = await upload.response;
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'too_many_files', message: expect.stringContaining('2,000') });
    for (let i = 0; i < 100 && !upload.cancelled(); i++) await tick(5);
    expect(upload.cancelled()).toBe(true);
    expect(uploadsInProgress()).toBe(0);
  });

  it('keeps one preview per user: a new one replaces the one before, and its upload', async () => {
    const user = await editor();
    const preview = async (name: string) => {
      const res = await t.app.request(
        '/import',
        uploadRequest([{ name, body: `# ${name}\n\ntext` }], user.cookie, { space: 'knowledge' }),
      );
      expect(res.status).toBe(303);
      return res.headers.get('location')!.split('/').at(-1)!;
    };
    const first = await preview('first.md');
    const second = await preview('second.md');
    const mine = await t.db
      .select({ id: importJobs.id })
      .from(importJobs)
      .where(and(eq(importJobs.createdBy, user.id), eq(importJobs.status, 'preview')));
    expect(mine.map((r) => r.id)).toEqual([second]);
    expect((await t.app.request(`/import/${first}`, { headers: { Cookie: user.cookie } })).status).toBe(404);
    expect((await t.app.request(`/import/${second}`, { headers: { Cookie: user.cookie } })).status).toBe(200);
  });
});

describe('names', () => {
  it('a path or file name over 1,024 characters: 400, and the message does not repeat it whole', async () => {
    const user = await editor();
    const long = `${'very-long-folder-name/'.repeat(50)}file.md`;
    expect(long.length).toBeGreaterThan(1024);
    for (const files of [[{ name: 'long.zip', body: zip({ [long]: '# Long' }) }], [{ name: long, body: '# Long' }]]) {
      const res = await post('space=knowledge&dryRun=true', files, user);
      expect(res.status).toBe(400);
      const { code, message } = await res.json();
      expect(code).toBe('path_too_long');
      expect(message.length).toBeLessThan(300);
      expect(message).toContain('1,024');
    }
  });
});
