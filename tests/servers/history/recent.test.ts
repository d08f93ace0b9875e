import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { DETAIL_ROUNDS, serverDetailOf } from '../../../src/servers/detail';
import { createTestApp, type TestContext } from '../../helpers/app';
import { createSignedInUser, type TestUser } from '../../helpers/users';
import { addCheckSeries, addChecks, addServers } from './support';

let t: TestContext;
let admin: TestUser;
let busy: string;
let quiet: string;
const NOW = new Date();
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

/** The server's newest rounds straight from health_checks (what the ring must hold), newest first. */
const newestChecks = async (serverId: string, limit = DETAIL_ROUNDS) =>
  (
    await queryRows<{ id: string }>(
      t.db,
      sql`select id from health_checks where server_id = ${serverId}::uuid
          order by checked_at desc, id desc limit ${limit}`,
    )
  ).map((r) => r.id);

const ringIds = async (serverId: string) => (await serverDetailOf(t.db, serverId, null))!.rows.map((r) => r.id);

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  [busy, quiet] = await addServers(t.db, ['ring-busy', 'ring-quiet']);
  // A day of rounds in one statement (289 rows: the statement keeps its newest 50), then single rounds after it.
  await addCheckSeries(t.db, busy, minutesAgo(20), 1, 5);
  for (const m of [15, 10, 5]) await addChecks(t.db, busy, [[minutesAgo(m), 'offline']]);
  await addChecks(t.db, quiet, [
    [minutesAgo(12), 'online'],
    [minutesAgo(7), 'warning'],
  ]);
});
afterAll(() => t.close());

describe('the newest health rounds (health_recent)', () => {
  it("holds each server's newest rounds, however they were inserted, and the detail page reads them newest first", async () => {
    expect(await ringIds(busy)).toEqual(await newestChecks(busy));
    expect(await ringIds(busy)).toHaveLength(DETAIL_ROUNDS);
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from health_recent where server_id = ${busy}::uuid`,
    );
    expect(count.n).toBe(DETAIL_ROUNDS);
    const quietRows = (await serverDetailOf(t.db, quiet, null))!.rows;
    expect(quietRows.map((r) => r.status)).toEqual(['warning', 'online']);
    expect(quietRows.map((r) => r.id)).toEqual(await newestChecks(quiet));
  });

  it('a new round replaces the oldest one at once, on the page too', async () => {
    await addChecks(t.db, busy, [[minutesAgo(1), 'warning', 4321]]);
    const rows = (await serverDetailOf(t.db, busy, null))!.rows;
    expect(rows.map((r) => r.id)).toEqual(await newestChecks(busy));
    expect(rows[0]).toMatchObject({ status: 'warning', latencyMs: 4321 });
    const page = await t.app.request(`/infrastructure/${busy}`, { headers: { Cookie: admin.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Last ${DETAIL_ROUNDS} of at most ${DETAIL_ROUNDS}`);
    expect(html).toContain('4321');
  });

  it('is filled again from health_checks by health_recent_fill() (the migration, a bulk load) and goes with its server', async () => {
    const before = await ringIds(busy);
    await t.db.execute(sql`delete from health_recent where server_id = ${busy}::uuid`);
    expect(await ringIds(busy)).toEqual([]);
    await t.db.execute(sql`select health_recent_fill()`);
    expect(await ringIds(busy)).toEqual(before);

    await t.db.execute(sql`delete from servers where id = ${quiet}::uuid`);
    const [left] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from health_recent where server_id = ${quiet}::uuid`,
    );
    expect(left.n).toBe(0);
  });
});
