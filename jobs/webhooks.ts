import { DELIVERY_RETENTION_DAYS, LEASE_MS, pruneDeliveries, runWebhookDeliveries } from '../src/webhooks/commands';
import { defineJob } from './define-job';

/**
 * Sends the due webhook deliveries: retries (30 s, then doubling up to an hour), and anything a kick after commit
 * did not send (src/webhooks/listener.ts). Shared: every worker claims deliveries (FOR UPDATE SKIP LOCKED, leased).
 * Then deletes sent and failed deliveries older than DELIVERY_RETENTION_DAYS.
 */
export const webhooksJob = defineJob({
  name: 'webhooks',
  title: 'Webhook deliveries',
  shared: true,
  leaseMs: LEASE_MS,
  schedule: (config) => config.schedules.webhooks,
  async run({ db, config, logger, signal }) {
    const r = await runWebhookDeliveries({ db, config, logger }, { signal });
    const pruned = await pruneDeliveries(db);
    const summary = `Sent ${r.sent}, will retry ${r.retried}, failed ${r.failed}.`;
    return pruned ? `${summary} Deleted ${pruned} deliveries older than ${DELIVERY_RETENTION_DAYS} days.` : summary;
  },
});
