import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { alertDeliveries, users } from '../db/schema';
import type { AlertChannelName } from './shared';

/** Queuing alert messages: one alert_deliveries row per message and recipient. */

export type DeliveryKind = 'opened' | 'repeat' | 'recovered';

/** The rule as queuing needs it. */
export interface RuleTarget {
  channel: AlertChannelName;
  userIds: string[];
}

/** "<alertId>:<kind>:<repeat>:<recipient>": the same message to the same recipient is one row, however often queued. */
export const deliveryKey = (alertId: string, kind: DeliveryKind, repeat: number, recipient: string) =>
  `${alertId}:${kind}:${repeat}:${recipient}`;

/**
 * Queues one message of an alert for every recipient of its rule: each active user named (e-mail, push; a rule is an
 * explicit subscription, so the Settings switches do not apply) or the rule's webhook. Answers rows added.
 */
export async function queueDeliveries(
  db: Db,
  p: { alertId: string; rule: RuleTarget; kind: DeliveryKind; repeat: number; at: Date },
): Promise<number> {
  const recipients =
    p.rule.channel === 'webhook'
      ? [null]
      : p.rule.userIds.length
        ? (
            await db
              .select({ id: users.id })
              .from(users)
              .where(and(inArray(users.id, p.rule.userIds), eq(users.accountStatus, 'active')))
          ).map((u) => u.id)
        : [];
  if (!recipients.length) return 0;
  const added = await db
    .insert(alertDeliveries)
    .values(
      recipients.map((userId) => ({
        alertId: p.alertId,
        kind: p.kind,
        dedupeKey: deliveryKey(p.alertId, p.kind, p.repeat, userId ?? 'webhook'),
        channel: p.rule.channel,
        userId,
        nextAttemptAt: p.at,
      })),
    )
    .onConflictDoNothing({ target: alertDeliveries.dedupeKey })
    .returning({ id: alertDeliveries.id });
  return added.length;
}
