/**
 * Outgoing webhooks as the job, the routes and the process use them: the delivery run (claim, sign, post, record),
 * the endpoints admins register (their URL looked up and vetted against WEBHOOK_ALLOW_HOSTS), and the retention.
 */
export {
  LEASE_MS,
  runWebhookDeliveries,
  type WebhookDeps,
  type WebhookRunOptions,
  type WebhookRunResult,
} from './deliver';
export {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './endpoints';
export { startWebhookListener, type WebhookListener } from './listener';
export { DELIVERY_RETENTION_DAYS, pruneDeliveries } from './retention';
