import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rateLimitHits } from '../../src/db/schema';
import { forget, hit, hitAll, pruneExpiredHits, undo } from '../../src/http/rate-limit';
import { createTestDatabase } from '../helpers/db';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rule = { limit: 3, windowSeconds: 60 };

describe('rate limiter (PostgreSQL)', () => {
  it('allows `limit` hits per window, then refuses with the seconds until the oldest one expires', async () => {
    const db = database.db;
    for (let i = 0; i < 3; i++) expect(await hit(db, 'k:a', rule)).toMatchObject({ allowed: true, retryAfter: 0 });
    const refused = await hit(db, 'k:a', rule);
    expect(refused).toMatchObject({ allowed: false, hitIds: [] });
    expect(refused.retryAfter).toBeGreaterThan(55);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect((await hit(db, 'k:b', rule)).allowed).toBe(true);
  });

  it('counts a hit for every rule or for none', async () => {
    const db = database.db;
    await forget(db, ['k:a', 'k:c']);
    for (let i = 0; i < 3; i++) await hit(db, 'k:c', rule);
    const both = [
      { key: 'k:a', ...rule },
      { key: 'k:c', ...rule },
    ];
    expect((await hitAll(db, both)).allowed).toBe(false);
    expect((await hit(db, 'k:a', { limit: 1, windowSeconds: 60 })).allowed).toBe(true);
  });

  it('takes hits back (undo) and forgets keys', async () => {
    const db = database.db;
    await forget(db, ['k:d']);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(...(await hit(db, 'k:d', rule)).hitIds);
    await undo(db, ids.slice(0, 1));
    expect((await hit(db, 'k:d', rule)).allowed).toBe(true);
    expect((await hit(db, 'k:d', rule)).allowed).toBe(false);
    await forget(db, ['k:d']);
    expect((await hit(db, 'k:d', rule)).allowed).toBe(true);
  });

  it('never lets more than `limit` through when hits arrive at once', async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 25 }, () => hit(database.db, 'k:burst', { limit: 5, windowSeconds: 60 })),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it('lets expired hits go, and prunes them', async () => {
    const db = database.db;
    await db.update(rateLimitHits).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await hit(db, 'k:a', rule)).allowed).toBe(true);
    expect(await pruneExpiredHits(db)).toBeGreaterThan(0);
    expect((await db.select().from(rateLimitHits)).map((r) => r.key)).toEqual(['k:a']);
  });
});
