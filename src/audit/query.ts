import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, users } from '../db/schema';
import { type AuditCursor, encodeCursor } from './cursor';

/**
 * What the audit trail may be filtered by. `from`/`to` are days (YYYY-MM-DD) in `timeZone`, both inclusive, or
 * instants (ISO 8601 with an offset).
 */
export interface AuditFilters {
  actor?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: string;
  to?: string;
  timeZone: string;
}

/** One event of the audit trail; the actor is null for the system (CLI, jobs, deleted users). */
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
export const AUDIT_MAX_PAGE_SIZE = 200;

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The start of a day in the reader's timezone, or the instant given. */
const startOf = (value: string, timeZone: string) =>
  isDay(value) ? sql`(${value}::date::timestamp at time zone ${timeZone})` : sql`${value}::timestamptz`;

/** The end (exclusive) of a day in the reader's timezone, or just after the instant given. */
const endOf = (value: string, timeZone: string) =>
  isDay(value)
    ? sql`((${value}::date + 1)::timestamp at time zone ${timeZone})`
    : sql`(${value}::timestamptz + interval '1 microsecond')`;

/** The WHERE conditions of the filters (each equality one the audit_log indexes start with). */
export function filterConditions(f: AuditFilters): SQL[] {
  const where: SQL[] = [];
  if (f.actor) where.push(eq(auditLog.actorId, f.actor));
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.entityType) where.push(eq(auditLog.entityType, f.entityType));
  if (f.entityId) where.push(eq(auditLog.entityId, f.entityId));
  if (f.from) where.push(sql`${auditLog.createdAt} >= ${startOf(f.from, f.timeZone)}`);
  if (f.to) where.push(sql`${auditLog.createdAt} < ${endOf(f.to, f.timeZone)}`);
  return where;
}

/** Strictly older than the cursor in the (created_at desc, id desc) order: one row comparison the indexes serve. */
const olderThan = (cursor: AuditCursor) =>
  sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;

/** created_at as UTC text to the microsecond: the cursor must not lose what a JS Date would round away. */
const exactCreatedAt = sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Up to `limit` events matching the filters, newest first, strictly after `cursor`; with the cursor of the last one. */
export async function auditBatch(db: Db, where: SQL[], cursor: AuditCursor | undefined, limit: number) {
  const conditions = cursor ? [...where, olderThan(cursor)] : where;
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      exactCreatedAt,
      actorId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(...conditions))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
  return {
    events: rows.map(
      (r): AuditEvent => ({
        id: r.id,
        action: r.action,
        entityType: r.entityType,
        entityId: r.entityId,
        details: (r.details ?? {}) as Record<string, unknown>,
        createdAt: r.createdAt.toISOString(),
        actor: r.actorId ? { id: r.actorId, email: r.email ?? '', firstName: r.firstName, lastName: r.lastName } : null,
      }),
    ),
    keys: rows.map((r): AuditCursor => ({ createdAt: r.exactCreatedAt, id: r.id })),
  };
}

/** A page of the audit trail, newest first, and the cursor of the next (older) page, null on the last. */
export async function listAuditEvents(
  db: Db,
  filters: AuditFilters,
  page: { cursor?: AuditCursor; limit?: number } = {},
): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
  const limit = Math.min(page.limit ?? AUDIT_PAGE_SIZE, AUDIT_MAX_PAGE_SIZE);
  const { events, keys } = await auditBatch(db, filterConditions(filters), page.cursor, limit + 1);
  if (events.length <= limit) return { events, nextCursor: null };
  return { events: events.slice(0, limit), nextCursor: encodeCursor(keys[limit - 1]) };
}

/** The accounts the actor filter offers (names for the select), by e-mail. */
export async function auditActors(db: Db): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .orderBy(users.email)
    .limit(1000);
  return rows.map((u) => {
    const name = [u.firstName, u.lastName].filter(Boolean).join(' ');
    return { id: u.id, name: name ? `${name} (${u.email})` : u.email };
  });
}

/** One entity's events (an item's, a server's), newest first, a keyset page at a time (the entity index serves it). */
export function listEntityEvents(
  db: Db,
  entity: { type: string; id: string },
  cursor: AuditCursor | undefined,
  timeZone: string,
) {
  return listAuditEvents(db, { entityType: entity.type, entityId: entity.id, timeZone }, { cursor });
}
