import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { serverCounts, servers } from '../../src/db/schema';
import { createTestDatabase, usingPostgres } from '../helpers/db';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The kept counters next to what counting the table says, as "environment/status" → n (zeros left out). */
async function counts() {
  const asMap = (rows: { environment: string; status: string; n: string | number }[]) =>
    Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [`${r.environment}/${r.status}`, Number(r.n)]));
  const kept = await database.db.select().from(serverCounts);
  const actual = await queryRows<{ environment: string; status: string; n: string | number }>(
    database.db,
    sql`select environment, status, count(*) as n from servers group by environment, status`,
  );
  return { kept: asMap(kept), actual: asMap(actual) };
}

/** The row versions of the counters: unchanged when no counter was written. */
const counterVersions = async () =>
  (await queryRows<{ v: string }>(database.db, sql`select string_agg(xmin::text, ',' order by environment, status) as v from server_counts`))[0].v;

const server = (name: string, environment: 'production' | 'staging' | 'development', status: 'online' | 'offline' | 'warning' | 'maintenance') => ({
  name,
  environment,
  status,
  ipAddress: '127.0.0.1',
});

describe(`server_counts on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('follows inserts, status changes, moves between environments and deletes', async () => {
    const rows = await database.db
      .insert(servers)
      .values([server('a', 'production', 'online'), server('b', 'production', 'online'), server('c', 'staging', 'offline'), server('d', 'development', 'warning')])
      .returning({ id: servers.id, name: servers.name });
    const id = Object.fromEntries(rows.map((r) => [r.name, r.id]));
    expect(await counts()).toEqual({
      kept: { 'production/online': 2, 'staging/offline': 1, 'development/warning': 1 },
      actual: { 'production/online': 2, 'staging/offline': 1, 'development/warning': 1 },
    });

    await database.db.update(servers).set({ status: 'offline' }).where(eq(servers.id, id.a));
    await database.db.update(servers).set({ environment: 'production', status: 'maintenance' }).where(eq(servers.id, id.c));
    expect((await counts()).kept).toEqual({ 'production/online': 1, 'production/offline': 1, 'production/maintenance': 1, 'development/warning': 1 });

    await database.db.delete(servers).where(inArray(servers.id, [id.b, id.d]));
    const after = await counts();
    expect(after.kept).toEqual({ 'production/offline': 1, 'production/maintenance': 1 });
    expect(after.kept).toEqual(after.actual);
  });

  it('writes no counter when an update changes neither status nor environment (a routine health check)', async () => {
    const before = await counterVersions();
    await database.db.update(servers).set({ cpuUsage: 55, lastHealthCheck: new Date() });
    expect(await counterVersions()).toBe(before);
  });

  it('leaves the counters alone when a write is rolled back', async () => {
    const before = await counts();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(servers).values(server('rolled-back', 'staging', 'online'));
        await tx.update(servers).set({ status: 'online' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await counts()).toEqual(before);
  });

  it('stays exact under concurrent status changes', async () => {
    const many = await database.db
      .insert(servers)
      .values(Array.from({ length: 20 }, (_, i) => server(`busy-${i}`, i % 2 ? 'staging' : 'development', 'online')))
      .returning({ id: servers.id });
    const statuses = ['offline', 'warning', 'online', 'maintenance'] as const;
    await Promise.all(many.map((r, i) => database.db.update(servers).set({ status: statuses[i % 4] }).where(eq(servers.id, r.id))));
    const after = await counts();
    expect(after.kept).toEqual(after.actual);
  });
});
