/**
 * The mail feature as other features use it: queue a message in the caller's transaction (it is sent after the
 * commit, see listener.ts) and the messages we send.
 */
export { enqueueMail } from './outbox';
export * from './templates';
