import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, users } from '../db/schema';

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

/** One event of the audit trail as /admin/audit shows it; the actor is null for the system (CLI, jobs, deleted users). */
export interface AuditEvent {
  id: string;
  action: string;
  entityType: string;
  entityId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
  actor: { id: string; email: string; firstName: string | null; lastName: string | null } | null;
}

export const AUDIT_PAGE_SIZE = 50;

/** A page of the audit trail, newest first (the actor from the users table), and whether an older page exists. */
export async function listAuditEvents(db: Db, page = 1): Promise<{ events: AuditEvent[]; hasMore: boolean }> {
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      actorId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  const events = rows.slice(0, AUDIT_PAGE_SIZE).map(
    (r): AuditEvent => ({
      id: r.id,
      action: r.action,
      entityType: r.entityType,
      entityId: r.entityId,
      details: (r.details ?? {}) as Record<string, unknown>,
      createdAt: r.createdAt.toISOString(),
      actor: r.actorId ? { id: r.actorId, email: r.email ?? '', firstName: r.firstName, lastName: r.lastName } : null,
    }),
  );
  return { events, hasMore: rows.length > AUDIT_PAGE_SIZE };
}
