import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { documentCounts, documents, users } from '../../src/db/schema';
import { createTestDatabase, usingPostgres } from '../helpers/db';

let database: Database;
let authorId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db.insert(users).values({ email: 'counts@example.com' }).returning({ id: users.id });
  authorId = user.id;
});
afterAll(() => database.close());

/** The kept counters next to what counting the table says. */
async function counts() {
  const kept = await database.db.select().from(documentCounts);
  const actual = await queryRows<{ space: string; n: string | number }>(
    database.db,
    sql`select space, count(*) as n from documents where deleted_at is null group by space`,
  );
  const asMap = (rows: { space: string; n: number }[]) => Object.fromEntries(rows.filter((r) => r.n !== 0).map((r) => [r.space, r.n]));
  return {
    kept: asMap(kept.map((r) => ({ space: r.space, n: r.live }))),
    actual: asMap(actual.map((r) => ({ space: r.space, n: Number(r.n) }))),
  };
}

const item = (space: 'knowledge' | 'documents', title: string) => ({ space, title, content: 'Body', authorId });

describe(`document_counts on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('follows inserts, soft deletes, restores, moves between spaces and hard deletes', async () => {
    const inserted = await database.db
      .insert(documents)
      .values([item('knowledge', 'a'), item('knowledge', 'b'), item('knowledge', 'c'), item('documents', 'd')])
      .returning({ id: documents.id });
    expect(await counts()).toEqual({ kept: { knowledge: 3, documents: 1 }, actual: { knowledge: 3, documents: 1 } });

    const [a, b, c, d] = inserted.map((r) => r.id);
    await database.db.update(documents).set({ deletedAt: new Date() }).where(inArray(documents.id, [a, b]));
    expect((await counts()).kept).toEqual({ knowledge: 1, documents: 1 });

    await database.db.update(documents).set({ deletedAt: null }).where(eq(documents.id, a));
    await database.db.update(documents).set({ space: 'documents' }).where(eq(documents.id, c));
    await database.db.update(documents).set({ title: 'edited' }).where(eq(documents.id, d));
    expect((await counts()).kept).toEqual({ knowledge: 1, documents: 2 });

    await database.db.delete(documents).where(inArray(documents.id, [a, b]));
    const after = await counts();
    expect(after.kept).toEqual({ documents: 2 });
    expect(after.kept).toEqual(after.actual);
  });

  it('leaves the counters alone when a write is rolled back', async () => {
    const before = await counts();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values(item('knowledge', 'rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await counts()).toEqual(before);
  });
});
