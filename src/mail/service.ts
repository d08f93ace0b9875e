/**
 * The mail feature as other features use it: queue a message in the caller's transaction (it is sent after the
 * commit, see listener.ts) and the messages we send.
 */
export { enqueueMail } from './outbox';
export * from './templates';
/** Listening for NOTIFY (PGlite or PostgreSQL) and runs started by kicks: other outboxes send after commit too. */
export { listenTo } from './channel';
export { coalescedRun } from './kick';
