import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

/** Sent and failed deliveries are kept this long (the page and API show them with their last answer), then deleted. */
export const DELIVERY_RETENTION_DAYS = 30;
/** Most deliveries one prune deletes per endpoint (the job runs every minute). */
const PRUNE_BATCH = 5_000;

/**
 * Deletes sent and failed deliveries older than the retention, oldest first, per endpoint through its
 * (endpoint_id, created_at) index: cheap when there is nothing to delete. Pending ones stay until they end. An
 * endpoint's count of dropped events goes too, once its first drop is that old (the count starts again).
 */
export async function pruneDeliveries(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000).toISOString();
  const rows = await queryRows(
    db,
    sql`delete from webhook_deliveries where id in (
          select d.id from webhook_endpoints e cross join lateral (
            select id from webhook_deliveries
            where endpoint_id = e.id and created_at < ${cutoff}::timestamptz and status in ('sent', 'failed', 'dropped')
            order by created_at limit ${PRUNE_BATCH}) d)
        returning id`,
  );
  return rows.length;
}
