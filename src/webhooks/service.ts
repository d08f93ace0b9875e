/**
 * Outgoing webhooks as other features use them: queue an event in the transaction of the change that is the event.
 * (The delivery run and the endpoints admins keep are in commands.ts; this module imports no other feature, so
 * every feature may call it.)
 */
export { queueWebhookEvent, queueWebhookEvents, type QueuedEvent } from './queue';
