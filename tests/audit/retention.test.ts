import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditTrail, recordAudit } from '../../src/audit/service';
import { ConfigError, loadConfig } from '../../src/config';
import type { Database } from '../../src/db/client';
import { auditLog, users } from '../../src/db/schema';
import { createTestDatabase } from '../helpers/db';
import { jobsConfig, testScheduler } from '../jobs/support';

/** The audit trail is append-only for the application; only the retention job deletes, and only old events. */

const DAY = 86_400_000;
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The error a statement fails with (drizzle wraps the driver's; the trigger's message is in the cause). */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
  return 'no error';
}

async function event(action: string, createdAt = new Date()) {
  const [row] = await database.db
    .insert(auditLog)
    .values({ action, entityType: 'retention', createdAt })
    .returning({ id: auditLog.id });
  return row.id;
}

const exists = async (id: string) =>
  (await database.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.id, id))).length === 1;

describe('append-only trigger', () => {
  it('refuses UPDATE of an event', async () => {
    const id = await event('trigger.update');
    const message = await failure(() =>
      database.db.update(auditLog).set({ action: 'rewritten' }).where(eq(auditLog.id, id)),
    );
    expect(message).toContain('The audit trail is append-only.');
    const [row] = await database.db.select().from(auditLog).where(eq(auditLog.id, id));
    expect(row.action).toBe('trigger.update');
  });

  it('refuses DELETE outside the retention job’s transaction, and with the setting off', async () => {
    const id = await event('trigger.delete');
    expect(await failure(() => database.db.delete(auditLog).where(eq(auditLog.id, id)))).toContain('append-only');
    const offInTx = () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`set local opshub.audit_prune = 'off'`);
        await tx.delete(auditLog).where(eq(auditLog.id, id));
      });
    expect(await failure(offInTx)).toContain('append-only');
    expect(await exists(id)).toBe(true);
  });

  it('SET LOCAL lasts for its transaction only: the next statement is refused again', async () => {
    const first = await event('trigger.local.1');
    const second = await event('trigger.local.2');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local opshub.audit_prune = 'on'`);
      await tx.delete(auditLog).where(eq(auditLog.id, first));
    });
    expect(await exists(first)).toBe(false);
    expect(await failure(() => database.db.delete(auditLog).where(eq(auditLog.id, second)))).toContain('append-only');
    expect(await exists(second)).toBe(true);
  });

  it('an account’s deletion still sets the actor of its events to null (the one update it allows)', async () => {
    const [u] = await database.db.insert(users).values({ email: 'gone@example.com' }).returning();
    await recordAudit(database.db, {
      actorId: u.id,
      action: 'trigger.actor',
      entityType: 'retention',
      details: { a: 1 },
    });
    await database.db.delete(users).where(eq(users.id, u.id));
    const [row] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'trigger.actor'));
    expect(row.actorId).toBeNull();
    expect(row.details).toEqual({ a: 1 });
  });
});

describe('retention', () => {
  it('AUDIT_RETENTION_DAYS: 365 by default, a positive whole number', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'a year']) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(ConfigError);
    }
  });

  it('the audit-retention job deletes only events older than the retention period', async () => {
    const now = Date.now();
    const old = await event('retention.old', new Date(now - 31 * DAY));
    const older = await event('retention.older', new Date(now - 400 * DAY));
    const young = await event('retention.young', new Date(now - 29 * DAY));
    const recent = await event('retention.recent');
    const config = jobsConfig({ AUDIT_RETENTION_DAYS: '30' });
    const outcome = await testScheduler(database, { config }).runNow('audit-retention');
    expect(outcome).toMatchObject({ status: 'ok' });
    expect(outcome.message).toMatch(/^Deleted \d+ audit events older than 30 days\.$/);
    expect(await exists(old)).toBe(false);
    expect(await exists(older)).toBe(false);
    expect(await exists(young)).toBe(true);
    expect(await exists(recent)).toBe(true);
  });

  it('prunes in batches until nothing old is left', async () => {
    await database.db.execute(sql`
      insert into audit_log (action, entity_type, created_at)
      select 'retention.bulk', 'retention', now() - interval '3 years' - g * interval '1 second'
      from generate_series(1, 12000) g`);
    const deleted = await pruneAuditTrail(database.db, { days: 365, now: new Date() });
    expect(deleted).toBeGreaterThanOrEqual(12000);
    const left = await database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.action, 'retention.bulk'));
    expect(left).toEqual([]);
  });
});
