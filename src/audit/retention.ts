import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

const BATCH = 5000;

/** Deletes one batch of events older than `cutoff`; the append-only trigger lets it through for this transaction only. */
async function pruneBatch(db: Db, cutoff: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local opshub.audit_prune = 'on'`);
    const oldest = tx.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.createdAt, cutoff)).limit(BATCH);
    const deleted = await tx.delete(auditLog).where(sql`${auditLog.id} in (${oldest})`).returning({ id: auditLog.id });
    return deleted.length;
  });
}

/** Deletes the audit events older than `days` days before `now`, in batches (short transactions); returns how many. */
export async function pruneAuditTrail(
  db: Db,
  { days, now, signal }: { days: number; now: Date; signal?: AbortSignal },
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await pruneBatch(db, cutoff);
    total += deleted;
    if (deleted < BATCH || signal?.aborted) return total;
  }
}
