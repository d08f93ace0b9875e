import { sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows, type Database, type Db } from '../../../src/db/client';
import { dayOf, hourStart } from '../../../src/servers/history/periods';
import { pruneHealthHistory } from '../../../src/servers/history/prune';
import { rollUpHealth } from '../../../src/servers/history/rollup';
import { createTestDatabase } from '../../helpers/db';
import { addChecks, addServers, count, DAY, HOUR } from './support';

const NOW = new Date('2026-03-15T10:20:00Z');
const HISTORY_DAYS = 3;
const ROLLUP_DAYS = 10;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

let database: Database;
let db: Db;

const times = async (table: string, column: string) =>
  (
    await queryRows<{ t: unknown }>(db, sql`select ${sql.raw(column)}::text as t from ${sql.raw(table)} order by 1`)
  ).map((r) => String(r.t));

beforeEach(async () => {
  await database?.close();
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

describe('pruning', () => {
  it('keeps raw checks and rounds of exactly historyDays, rollups of rollupDays, deleting in batches', async () => {
    const [a, b] = await addServers(db, ['a', 'b']);
    const cutoff = ago(HISTORY_DAYS * DAY);
    const old = [1, 2, 3, 4, 5].map((h) => ago(HISTORY_DAYS * DAY + h * HOUR));
    await addChecks(db, a, [
      [cutoff, 'online'],
      [new Date(cutoff.getTime() - 1), 'online'],
      ...old.map((t): [Date, string] => [t, 'offline']),
      [ago(HOUR), 'online'],
      [NOW, 'online'],
    ]);
    await addChecks(db, b, [
      [new Date(cutoff.getTime() - 1), 'online'],
      [ago(2 * HOUR), 'warning'],
    ]);
    await db.execute(sql`insert into health_rounds (slot_at) values
      (${cutoff.toISOString()}::timestamptz), (${new Date(cutoff.getTime() - 1).toISOString()}::timestamptz)`);
    await rollUpHealth(db, { now: NOW });
    // Rollups as old as rollupDays: the hour and the UTC day holding the cutoff stay, the ones before go.
    const rollupCutoff = ago(ROLLUP_DAYS * DAY);
    const keptHour = hourStart(rollupCutoff);
    const goneHour = new Date(keptHour.getTime() - HOUR);
    const keptDay = dayOf(rollupCutoff);
    const goneDay = dayOf(new Date(rollupCutoff.getTime() - DAY));
    for (const hour of [keptHour, goneHour])
      await db.execute(sql`insert into health_rollups (server_id, hour, checks, failures, online)
        values (${a}::uuid, ${hour.toISOString()}::timestamptz, 1, 0, 1)`);
    for (const day of [keptDay, goneDay])
      await db.execute(sql`insert into health_daily (server_id, day, checks, failures, online)
        values (${a}::uuid, ${day}::date, 1, 0, 1)`);
    const rawBefore = await count(db, 'health_checks');
    const rollupsBefore = await count(db, 'health_rollups');
    const dailyBefore = await count(db, 'health_daily');

    const result = await pruneHealthHistory(db, {
      now: NOW,
      historyDays: HISTORY_DAYS,
      rollupDays: ROLLUP_DAYS,
      batchSize: 2,
    });

    expect(result).toMatchObject({ raw: 7, rounds: 1, rollups: 1, daily: 1 });
    expect(await count(db, 'health_checks')).toBe(rawBefore - 7);
    const [oldest] = await queryRows<{ at: unknown }>(db, sql`select min(checked_at) as at from health_checks`);
    expect(new Date(String(oldest.at)).getTime()).toBe(cutoff.getTime());
    expect(await times('health_rounds', 'slot_at')).toHaveLength(1);
    expect(await count(db, 'health_rollups')).toBe(rollupsBefore - 1);
    expect(await count(db, 'health_daily')).toBe(dailyBefore - 1);
    const [kept] = await queryRows<{ n: unknown }>(
      db,
      sql`select count(*) as n from health_rollups where hour = ${keptHour.toISOString()}::timestamptz`,
    );
    expect(Number(kept.n)).toBe(1);
    // Two rows a statement: the 7 raw rows take 4 (2, 2, 2, 1), the round, hourly and daily rollup one each.
    expect(result.batches).toBe(4 + 1 + 1 + 1);
  });

  it('never deletes raw checks the next rollup recomputes or has not rolled up yet', async () => {
    const [a] = await addServers(db, ['a']);
    await addChecks(db, a, [[ago(5 * DAY), 'online']]);
    // Nothing rolled up yet: nothing may go.
    const none = await pruneHealthHistory(db, { now: NOW, historyDays: 1, rollupDays: 10 });
    expect(none.raw).toBe(0);

    await rollUpHealth(db, { now: ago(5 * DAY) });
    // Checks written since (not rolled up): old enough to prune, but the rollup has not seen them.
    await addChecks(db, a, [
      [ago(3 * DAY), 'offline'],
      [ago(DAY + HOUR), 'online'],
    ]);
    const early = await pruneHealthHistory(db, { now: NOW, historyDays: 1, rollupDays: 10 });
    expect(early.raw).toBe(0);
    expect(await count(db, 'health_checks')).toBe(3);

    await rollUpHealth(db, { now: NOW });
    const pruned = await pruneHealthHistory(db, { now: NOW, historyDays: 1, rollupDays: 10 });
    // The hour before the newest rolled-up one stays (the next rollup recomputes it): 2 go, 1 stays.
    expect(pruned.raw).toBe(2);
    const [left] = await queryRows<{ at: unknown }>(db, sql`select checked_at as at from health_checks`);
    expect(new Date(String(left.at)).getTime()).toBe(ago(DAY + HOUR).getTime());
    // The rollups still count all three checks.
    const [sum] = await queryRows<{ n: unknown }>(db, sql`select sum(checks) as n from health_daily`);
    expect(Number(sum.n)).toBe(3);
  });
});
