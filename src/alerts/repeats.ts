import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { alertRules } from '../db/schema';
import { queueDeliveries } from './queue';
import type { AlertChannelName } from './shared';

/**
 * Each run of the job, before the reminders: open alerts whose server is no longer offline are closed, whatever
 * changed the status (a round, an editor by hand, metrics, maintenance); one back online or warning gets the recovery
 * message where its rule wants it. This catches every path without a hook in each. Then the reminders while a server
 * stays down: open, unacknowledged alerts of offline servers outside maintenance windows whose next_repeat_at has
 * passed get a 'repeat' message and their next one repeatMinutes later (after a long stop or a maintenance window,
 * from now: no burst of missed reminders).
 */

interface DueAlert {
  id: string;
  repeats: number;
  nextRepeatAt: Date | string;
  channel: AlertChannelName;
  userIds: string[];
  repeatMinutes: number;
}

const BATCH = 200;

/** Closes the open alerts of servers that are not offline; answers how many (FOR UPDATE SKIP LOCKED per alert). */
export async function closeRecovered(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const closed = await queryRows<{ id: string; ruleId: string; status: string }>(
      tx,
      sql`update alerts a set closed_at = ${now.toISOString()}::timestamptz, next_repeat_at = null
          from servers s
          where a.id in (
            select a2.id from alerts a2 join servers s2 on s2.id = a2.server_id
            where a2.closed_at is null and s2.status <> 'offline' for update of a2 skip locked)
            and s.id = a.server_id and a.closed_at is null
          returning a.id, a.rule_id as "ruleId", s.status`,
    );
    const back = closed.filter((a) => a.status === 'online' || a.status === 'warning');
    if (!back.length) return closed.length;
    const rules = await tx
      .select({ id: alertRules.id, channel: alertRules.channel, userIds: alertRules.userIds })
      .from(alertRules)
      .where(
        and(
          inArray(alertRules.id, [...new Set(back.map((a) => a.ruleId))]),
          eq(alertRules.enabled, true),
          eq(alertRules.sendRecovery, true),
        ),
      );
    const byId = new Map(rules.map((r) => [r.id, r]));
    for (const a of back) {
      const rule = byId.get(a.ruleId);
      if (rule) await queueDeliveries(tx, { alertId: a.id, rule, kind: 'recovered', repeat: 0, at: now });
    }
    return closed.length;
  });
}

/** Queues the due repeats (FOR UPDATE SKIP LOCKED: two runners never queue the same one); answers alerts repeated. */
export async function queueRepeats(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await queryRows<DueAlert>(
      tx,
      sql`select a.id, a.repeats, a.next_repeat_at as "nextRepeatAt", r.channel, to_json(r.user_ids) as "userIds",
            r.repeat_minutes as "repeatMinutes"
          from alerts a join alert_rules r on r.id = a.rule_id join servers s on s.id = a.server_id
          where a.closed_at is null and a.acknowledged_at is null and r.enabled
            and s.status = 'offline' and s.maintenance_window_id is null
            and a.next_repeat_at <= ${now.toISOString()}::timestamptz
          order by a.next_repeat_at limit ${BATCH}
          for update of a skip locked`,
    );
    for (const a of due) {
      const repeat = a.repeats + 1;
      await queueDeliveries(tx, { alertId: a.id, rule: a, kind: 'repeat', repeat, at: now });
      const step = a.repeatMinutes * 60_000;
      const next = new Date(new Date(a.nextRepeatAt).getTime() + step);
      const nextAt = next > now ? next : new Date(now.getTime() + step);
      await tx.execute(
        sql`update alerts set repeats = ${repeat}, next_repeat_at = ${nextAt.toISOString()}::timestamptz
            where id = ${a.id}`,
      );
    }
    return due.length;
  });
}
