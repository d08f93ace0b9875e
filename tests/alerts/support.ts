import { and, eq, inArray } from 'drizzle-orm';
import { alertDeliveries, alerts, healthChecks, servers } from '../../src/db/schema';
import type { ServerStatus } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { announceStatusChanges } from '../../src/servers/commands';
import type { TestContext } from '../helpers/app';

/** Alert tests' helpers: servers, stored status changes announced as a round would, and what got queued. */

let serial = 0;

export async function addServer(
  t: TestContext,
  opts: { environment?: 'production' | 'staging' | 'development'; teamOwner?: string; status?: ServerStatus } = {},
) {
  const [s] = await t.db
    .insert(servers)
    .values({
      name: `alert-srv-${++serial}`,
      ipAddress: `127.0.9.${serial}`,
      environment: opts.environment ?? 'production',
      teamOwner: opts.teamOwner ?? null,
      status: opts.status ?? 'online',
    })
    .returning();
  return s;
}

/** Stores a status change as a check does (status + unannounced check row), then announces it. */
export async function statusChange(t: TestContext, serverId: string, from: ServerStatus, to: ServerStatus, at: Date) {
  await t.db.update(servers).set({ status: to, statusChangedAt: at }).where(eq(servers.id, serverId));
  await t.db
    .insert(healthChecks)
    .values({ serverId, status: to, previousStatus: from, unannounced: true, checkedAt: at });
  return announceStatusChanges({ db: t.db, config: t.config, logger: createLogger('silent') });
}

/** Many servers of one team at once (a storm's worth). */
export async function addServers(t: TestContext, n: number, teamOwner: string) {
  const batch = ++serial;
  return t.db
    .insert(servers)
    .values(
      Array.from({ length: n }, (_, i) => ({
        name: `${teamOwner}-${batch}-${String(i + 1).padStart(4, '0')}`,
        ipAddress: `127.10.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        environment: 'production' as const,
        teamOwner,
        status: 'online' as const,
      })),
    )
    .returning();
}

/** The same status change of many servers, stored and then announced in one go (one round's worth). */
export async function statusChanges(t: TestContext, ids: string[], from: ServerStatus, to: ServerStatus, at: Date) {
  await t.db.update(servers).set({ status: to, statusChangedAt: at }).where(inArray(servers.id, ids));
  await t.db
    .insert(healthChecks)
    .values(ids.map((serverId) => ({ serverId, status: to, previousStatus: from, unannounced: true, checkedAt: at })));
  return announceStatusChanges({ db: t.db, config: t.config, logger: createLogger('silent') });
}

export const alertsOf = (t: TestContext, serverId: string) =>
  t.db.select().from(alerts).where(eq(alerts.serverId, serverId)).orderBy(alerts.openedAt);

export const deliveriesOf = (t: TestContext, alertId: string, kind?: 'opened' | 'repeat' | 'recovered') =>
  t.db
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.alertId, alertId), kind ? eq(alertDeliveries.kind, kind) : undefined))
    .orderBy(alertDeliveries.dedupeKey);
