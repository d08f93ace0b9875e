import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertRules, alerts, servers } from '../db/schema';
import type { StatusChange } from '../servers/schemas';
import { queueDeliveries } from './queue';

/**
 * Alerts follow the announced status changes (called in the transaction that marks them announced, so a change opens
 * or closes its alerts exactly once): offline opens an alert per matching enabled rule and queues 'opened'
 * deliveries; back online or warning closes the server's open alerts and queues 'recovered' where the rule wants it.
 */

export interface AlertChangesResult {
  opened: number;
  closed: number;
  queued: number;
}

const minutes = (n: number) => n * 60_000;

/** Enabled rules whose environment and team owner (when set) are the server's. */
async function matchingRules(tx: Db, serverId: string) {
  return tx
    .select({
      id: alertRules.id,
      channel: alertRules.channel,
      userIds: alertRules.userIds,
      repeatMinutes: alertRules.repeatMinutes,
    })
    .from(alertRules)
    .innerJoin(servers, eq(servers.id, serverId))
    .where(
      and(
        eq(alertRules.enabled, true),
        sql`(${alertRules.environment} is null or ${alertRules.environment} = ${servers.environment})`,
        sql`(${alertRules.teamOwner} is null or lower(${alertRules.teamOwner}) = lower(${servers.teamOwner}))`,
        sql`(${alertRules.tag} is null or ${alertRules.tag} = any(${servers.tags}))`,
      ),
    );
}

/** Opens the alerts of a server that went offline (none where one is open already: alerts_open_idx). */
async function openAlerts(tx: Db, change: StatusChange, result: AlertChangesResult) {
  for (const rule of await matchingRules(tx, change.serverId)) {
    const [alert] = await tx
      .insert(alerts)
      .values({
        serverId: change.serverId,
        ruleId: rule.id,
        openedAt: change.at,
        nextRepeatAt: new Date(change.at.getTime() + minutes(rule.repeatMinutes)),
      })
      .onConflictDoNothing({ target: [alerts.serverId, alerts.ruleId], where: sql`closed_at is null` })
      .returning({ id: alerts.id });
    if (!alert) continue;
    result.opened++;
    result.queued += await queueDeliveries(tx, { alertId: alert.id, rule, kind: 'opened', repeat: 0, at: change.at });
  }
}

/** Closes a recovered server's open alerts; rules with sendRecovery (still enabled) queue the recovery message. */
async function closeAlerts(tx: Db, change: StatusChange, result: AlertChangesResult) {
  const closed = await tx
    .update(alerts)
    .set({ closedAt: change.at, nextRepeatAt: null })
    .where(and(eq(alerts.serverId, change.serverId), isNull(alerts.closedAt)))
    .returning({ id: alerts.id, ruleId: alerts.ruleId });
  result.closed += closed.length;
  for (const alert of closed) {
    const [rule] = await tx
      .select({ channel: alertRules.channel, userIds: alertRules.userIds })
      .from(alertRules)
      .where(and(eq(alertRules.id, alert.ruleId), eq(alertRules.enabled, true), eq(alertRules.sendRecovery, true)));
    if (rule)
      result.queued += await queueDeliveries(tx, {
        alertId: alert.id,
        rule,
        kind: 'recovered',
        repeat: 0,
        at: change.at,
      });
  }
}

/** Opens and closes alerts for the changes, oldest first; pass the announcing transaction. */
export async function recordAlertChanges(tx: Db, changes: StatusChange[]): Promise<AlertChangesResult> {
  const result: AlertChangesResult = { opened: 0, closed: 0, queued: 0 };
  const ordered = [...changes].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const change of ordered) {
    if (change.to === 'offline') await openAlerts(tx, change, result);
    else if (change.from === 'offline' && (change.to === 'online' || change.to === 'warning'))
      await closeAlerts(tx, change, result);
  }
  return result;
}
