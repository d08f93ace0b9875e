import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export { type AuditCursor, decodeCursor } from './cursor';
export { auditCsvStream, csvCell } from './csv';
export {
  AUDIT_MAX_PAGE_SIZE,
  AUDIT_PAGE_SIZE,
  type AuditEvent,
  type AuditFilters,
  auditActors,
  listAuditEvents,
} from './query';
export { activityQuery, auditFilterQuery, auditPageQuery } from './schemas';
export { pruneAuditTrail } from './retention';

export interface AuditEntry {
  actorId?: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  details?: Record<string, unknown>;
}

/** Records who did what to which entity; pass a transaction to make it part of the change. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    details: entry.details ?? {},
  });
}
