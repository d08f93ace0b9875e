import { and, desc, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { alertRules, alerts, servers } from '../db/schema';
import { conflict, notFound } from '../http/errors';

/** Open alerts as people see them: the list, one alert for the ack page, and acknowledging (stops the repeats). */

export interface OpenAlert {
  id: string;
  serverId: string;
  ruleId: string;
  openedAt: string;
  acknowledgedAt: string | null;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** The columns of an alert as the API shows it. */
const columns = {
  id: alerts.id,
  serverId: alerts.serverId,
  ruleId: alerts.ruleId,
  openedAt: alerts.openedAt,
  acknowledgedAt: alerts.acknowledgedAt,
};

const toOpenAlert = <R extends { openedAt: Date; acknowledgedAt: Date | null }>(r: R) => ({
  ...r,
  openedAt: iso(r.openedAt)!,
  acknowledgedAt: iso(r.acknowledgedAt),
});

/** Most alerts GET /api/alerts answers: in a storm there can be tens of thousands open. */
export const OPEN_ALERTS_LIMIT = 500;

/** The newest open alerts, newest first, at most OPEN_ALERTS_LIMIT (every signed-in reader sees every server). */
export async function listOpenAlerts(db: Db): Promise<OpenAlert[]> {
  const rows = await db
    .select(columns)
    .from(alerts)
    .where(isNull(alerts.closedAt))
    .orderBy(desc(alerts.openedAt), desc(alerts.id))
    .limit(OPEN_ALERTS_LIMIT);
  return rows.map(toOpenAlert);
}

/** One alert with its server and rule, for the ack page and the ack decision (recipients may acknowledge). */
export interface AlertDetail extends OpenAlert {
  serverName: string;
  serverStatus: string;
  ruleName: string;
  recipientIds: string[];
  closedAt: string | null;
}

export async function getAlert(db: Db, id: string): Promise<AlertDetail> {
  const [row] = await db
    .select({
      ...columns,
      closedAt: alerts.closedAt,
      serverName: servers.name,
      serverStatus: servers.status,
      ruleName: alertRules.name,
      recipientIds: alertRules.userIds,
    })
    .from(alerts)
    .innerJoin(servers, eq(servers.id, alerts.serverId))
    .innerJoin(alertRules, eq(alertRules.id, alerts.ruleId))
    .where(eq(alerts.id, id));
  if (!row) throw notFound('Alert not found.');
  return { ...toOpenAlert(row), closedAt: iso(row.closedAt) };
}

/**
 * Acknowledges an open alert: no more repeats (the recovery message still comes). Acknowledging twice answers the
 * alert as it is; a closed alert is 409.
 */
export async function acknowledgeAlert(db: Db, id: string, actorId: string, at = new Date()): Promise<OpenAlert> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(alerts).where(eq(alerts.id, id)).for('update');
    if (!row) throw notFound('Alert not found.');
    if (row.closedAt) throw conflict('This alert is closed: the server is back.', 'alert_closed');
    if (!row.acknowledgedAt) {
      await tx
        .update(alerts)
        .set({ acknowledgedAt: at, acknowledgedBy: actorId, nextRepeatAt: null })
        .where(and(eq(alerts.id, id), isNull(alerts.acknowledgedAt)));
      await recordAudit(tx, {
        actorId,
        action: 'alert.acknowledged',
        entityType: 'alert',
        entityId: id,
        details: { serverId: row.serverId, ruleId: row.ruleId },
      });
    }
    const [after] = await tx.select(columns).from(alerts).where(eq(alerts.id, id));
    return toOpenAlert(after);
  });
}
