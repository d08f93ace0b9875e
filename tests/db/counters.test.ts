import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { documents, servers, users } from '../../src/db/schema';
import { createTestDatabase, usingPostgres } from '../helpers/db';

let database: Database;
let authorId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db.insert(users).values({ email: 'counts@example.com' }).returning({ id: users.id });
  authorId = user.id;
});
afterAll(() => database.close());

type KeyedCount = { key: string; n: string | number };

/** Rows of (key, n) as key → n, zeros left out. */
async function countsOf(query: SQL): Promise<Record<string, number>> {
  const rows = await queryRows<KeyedCount>(database.db, query);
  return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.key, Number(r.n)]));
}

/** The kept counters next to what counting the table says, keyed "space/category". */
const documentCounts = async () => ({
  kept: await countsOf(sql`select space || '/' || category as key, live as n from document_counts`),
  actual: await countsOf(
    sql`select space || '/' || coalesce(category, '') as key, count(*) as n from documents where deleted_at is null group by 1`,
  ),
});

/** The kept counters next to what counting the table says, keyed "environment/status". */
const serverCounts = async () => ({
  kept: await countsOf(sql`select environment || '/' || status as key, n from server_counts`),
  actual: await countsOf(sql`select environment || '/' || status as key, count(*) as n from servers group by 1`),
});

/** The row versions of a counter table: unchanged when no counter was written. */
const versions = async (table: 'document_counts' | 'server_counts') =>
  (
    await queryRows<{ v: string }>(
      database.db,
      sql`select string_agg(xmin::text, ',' order by 1) as v from ${sql.identifier(table)}`,
    )
  )[0].v;

const item = (space: 'knowledge' | 'documents', title: string, category: string | null = null) => ({
  space,
  title,
  content: 'Body',
  authorId,
  category,
});
const server = (
  name: string,
  environment: 'production' | 'staging' | 'development',
  status: 'online' | 'offline' | 'warning' | 'maintenance',
) => ({
  name,
  environment,
  status,
  ipAddress: '127.0.0.1',
});

describe(`document_counts on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('follows inserts, soft deletes, restores, category changes, moves between spaces and hard deletes', async () => {
    const inserted = await database.db
      .insert(documents)
      .values([
        item('knowledge', 'a', 'DNS'),
        item('knowledge', 'b', 'DNS'),
        item('knowledge', 'c'),
        item('documents', 'd', ''),
      ])
      .returning({ id: documents.id });
    expect(await documentCounts()).toEqual({
      kept: { 'knowledge/DNS': 2, 'knowledge/': 1, 'documents/': 1 },
      actual: { 'knowledge/DNS': 2, 'knowledge/': 1, 'documents/': 1 },
    });

    const [a, b, c, d] = inserted.map((r) => r.id);
    await database.db
      .update(documents)
      .set({ deletedAt: new Date() })
      .where(inArray(documents.id, [a, b]));
    expect((await documentCounts()).kept).toEqual({ 'knowledge/': 1, 'documents/': 1 });

    await database.db.update(documents).set({ deletedAt: null }).where(eq(documents.id, a));
    await database.db.update(documents).set({ space: 'documents', category: 'Azure' }).where(eq(documents.id, c));
    await database.db.update(documents).set({ category: 'Azure' }).where(eq(documents.id, d));
    expect((await documentCounts()).kept).toEqual({ 'knowledge/DNS': 1, 'documents/Azure': 2 });

    await database.db.delete(documents).where(inArray(documents.id, [a, b]));
    const after = await documentCounts();
    expect(after.kept).toEqual({ 'documents/Azure': 2 });
    expect(after.kept).toEqual(after.actual);
  });

  it('keeps how many live items are restricted: visibility changes, moves, deletes and restores', async () => {
    const restrictedCounts = async () => ({
      kept: await countsOf(sql`select space || '/' || category as key, restricted as n from document_counts`),
      actual: await countsOf(
        sql`select space || '/' || coalesce(category, '') as key, count(*) as n from documents
            where deleted_at is null and visibility = 'restricted' group by 1`,
      ),
    });
    const [x, y, z] = (
      await database.db
        .insert(documents)
        .values([
          { ...item('knowledge', 'x', 'Vault'), visibility: 'restricted' as const },
          item('knowledge', 'y', 'Vault'),
          item('knowledge', 'z', 'Vault'),
        ])
        .returning({ id: documents.id })
    ).map((r) => r.id);
    expect((await restrictedCounts()).kept).toEqual({ 'knowledge/Vault': 1 });
    await database.db
      .update(documents)
      .set({ visibility: 'restricted' })
      .where(inArray(documents.id, [y, z]));
    expect((await restrictedCounts()).kept).toEqual({ 'knowledge/Vault': 3 });
    await database.db.update(documents).set({ visibility: 'everyone' }).where(eq(documents.id, z));
    await database.db.update(documents).set({ category: 'Keys' }).where(eq(documents.id, y));
    await database.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, x));
    expect((await restrictedCounts()).kept).toEqual({ 'knowledge/Keys': 1 });
    await database.db.update(documents).set({ deletedAt: null }).where(eq(documents.id, x));
    await database.db.update(documents).set({ space: 'documents', visibility: 'everyone' }).where(eq(documents.id, y));
    const after = await restrictedCounts();
    expect(after.kept).toEqual({ 'knowledge/Vault': 1 });
    expect(after.kept).toEqual(after.actual);
    expect((await documentCounts()).kept).toEqual((await documentCounts()).actual);
    await database.db.delete(documents).where(inArray(documents.id, [x, y, z]));
    expect((await restrictedCounts()).kept).toEqual({});
  });

  it('writes no counter when an edit keeps the space and category', async () => {
    const before = await versions('document_counts');
    await database.db.update(documents).set({ title: 'edited', content: 'New body' });
    expect(await versions('document_counts')).toBe(before);
  });

  it('leaves the counters alone when a write is rolled back', async () => {
    const before = await documentCounts();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values(item('knowledge', 'rolled back', 'DNS'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await documentCounts()).toEqual(before);
  });
});

describe(`server_counts on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('follows inserts, status changes, moves between environments and deletes', async () => {
    const rows = await database.db
      .insert(servers)
      .values([
        server('a', 'production', 'online'),
        server('b', 'production', 'online'),
        server('c', 'staging', 'offline'),
        server('d', 'development', 'warning'),
      ])
      .returning({ id: servers.id, name: servers.name });
    const id = Object.fromEntries(rows.map((r) => [r.name, r.id]));
    expect(await serverCounts()).toEqual({
      kept: { 'production/online': 2, 'staging/offline': 1, 'development/warning': 1 },
      actual: { 'production/online': 2, 'staging/offline': 1, 'development/warning': 1 },
    });

    await database.db.update(servers).set({ status: 'offline' }).where(eq(servers.id, id.a));
    await database.db
      .update(servers)
      .set({ environment: 'production', status: 'maintenance' })
      .where(eq(servers.id, id.c));
    expect((await serverCounts()).kept).toEqual({
      'production/online': 1,
      'production/offline': 1,
      'production/maintenance': 1,
      'development/warning': 1,
    });

    await database.db.delete(servers).where(inArray(servers.id, [id.b, id.d]));
    const after = await serverCounts();
    expect(after.kept).toEqual({ 'production/offline': 1, 'production/maintenance': 1 });
    expect(after.kept).toEqual(after.actual);
  });

  it('writes no counter when an update changes neither status nor environment (a routine health check)', async () => {
    const before = await versions('server_counts');
    await database.db.update(servers).set({ cpuUsage: 55, lastHealthCheck: new Date() });
    expect(await versions('server_counts')).toBe(before);
  });

  it('leaves the counters alone when a write is rolled back', async () => {
    const before = await serverCounts();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(servers).values(server('rolled-back', 'staging', 'online'));
        await tx.update(servers).set({ status: 'online' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await serverCounts()).toEqual(before);
  });

  it('stays exact, without deadlocks, when servers move both ways between two counters at once', async () => {
    const up = await database.db
      .insert(servers)
      .values(Array.from({ length: 15 }, (_, i) => server(`flip-up-${i}`, 'production', 'offline')))
      .returning({ id: servers.id });
    const down = await database.db
      .insert(servers)
      .values(Array.from({ length: 15 }, (_, i) => server(`flip-down-${i}`, 'production', 'online')))
      .returning({ id: servers.id });
    await Promise.all([
      ...up.map((r) => database.db.update(servers).set({ status: 'online' }).where(eq(servers.id, r.id))),
      ...down.map((r) => database.db.update(servers).set({ status: 'offline' }).where(eq(servers.id, r.id))),
    ]);
    const after = await serverCounts();
    expect(after.kept).toEqual(after.actual);
  });

  it('stays exact under concurrent status changes', async () => {
    const many = await database.db
      .insert(servers)
      .values(Array.from({ length: 20 }, (_, i) => server(`busy-${i}`, i % 2 ? 'staging' : 'development', 'online')))
      .returning({ id: servers.id });
    const statuses = ['offline', 'warning', 'online', 'maintenance'] as const;
    await Promise.all(
      many.map((r, i) =>
        database.db
          .update(servers)
          .set({ status: statuses[i % 4] })
          .where(eq(servers.id, r.id)),
      ),
    );
    const after = await serverCounts();
    expect(after.kept).toEqual(after.actual);
  });
});
