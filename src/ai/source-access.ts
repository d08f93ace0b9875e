import { and, count, inArray, isNull } from 'drizzle-orm';
import { can, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { documents } from '../db/schema';
import { readableBy } from '../knowledge/service';
import type { Sources } from './sources';

/**
 * May `viewer` read every source an answer drew on, now? Knowledge items and documents: live, and readable by the
 * item rules (knowledge's readableBy, the SQL form of can(item.read)); servers: the inventory's rule (every signed-in
 * role reads it: app.use); quoted audit events: audit.read. A deleted item counts as unreadable.
 */
export async function mayReadSources(db: Db, viewer: Actor, sources: Sources): Promise<boolean> {
  if (sources.auditLog && !can(viewer, 'audit.read')) return false;
  if (sources.servers.length && !can(viewer, 'app.use')) return false;
  if (!sources.items.length) return true;
  const [row] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(inArray(documents.id, sources.items), isNull(documents.deletedAt), readableBy(viewer)));
  return row.n === sources.items.length;
}
