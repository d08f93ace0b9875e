import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECT_TIMEOUT_MS,
  postWebhook,
  type VettedAddress,
  WEBHOOK_TIMEOUT_MS,
  type WebhookOutcome,
} from '../../src/http/webhook-post';
import { type Receiver, startReceiver } from './receiver';

/**
 * One webhook POST's deadlines (src/http/webhook-post.ts), on loopback: the lookup is inside the deadline, the
 * connection has a shorter one of its own, and an abort ends it at once, saying whether it may have arrived.
 */
let hooks: Receiver;
/** Takes TCP connections and never says a word: a TLS handshake with it never ends. */
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  hooks = await startReceiver();
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent?.close(r));
  await hooks?.close();
});

const loopback = async (): Promise<VettedAddress> => ({ ok: true, address: '127.0.0.1', family: 4 });
const never = () => new Promise<VettedAddress>(() => undefined);
const silentUrl = () => `https://127.0.0.1:${(silent.address() as AddressInfo).port}/x`;

/** The outcome and how long it took; a post still going after `guardMs` fails the test instead of hanging it. */
async function timed(post: Promise<WebhookOutcome>, guardMs = 8000) {
  const started = Date.now();
  const guard = new Promise<'hung'>((r) => setTimeout(() => r('hung'), guardMs).unref());
  const outcome = await Promise.race([post, guard]);
  return { outcome, ms: Date.now() - started };
}

describe('the deadline', () => {
  it('covers the lookup: a resolver that never answers ends the post at the deadline (safe to retry)', async () => {
    const { outcome, ms } = await timed(
      postWebhook('https://hooks.example.com/x', '{}', { resolve: never, timeoutMs: 300 }),
    );
    expect(outcome).toEqual({
      ok: false,
      retry: true,
      error: 'Looking up hooks.example.com took longer than 300 ms.',
    });
    expect(ms).toBeLessThan(2000);
  });

  it('a slow lookup leaves the post only what is left of the deadline', async () => {
    hooks.answers.set('/slow-dns', ['hang']);
    const slowLookup = () => new Promise<VettedAddress>((r) => setTimeout(() => r(loopback()), 1500));
    const { outcome, ms } = await timed(
      postWebhook(hooks.url('/slow-dns'), '{}', { resolve: slowLookup, timeoutMs: 2000 }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      maybeDelivered: true,
      error: 'No answer within 2000 ms after sending.',
    });
    // 2 s in all, not 1.5 s of lookup and then 2 s more.
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(3000);
  });

  it('connecting has its own, shorter deadline (5 s of the 10 s): a TLS handshake that never ends is not waited out', async () => {
    expect(CONNECT_TIMEOUT_MS).toBe(5000);
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    const { outcome, ms } = await timed(
      postWebhook(silentUrl(), '{}', { resolve: loopback, timeoutMs: 5000, connectTimeoutMs: 300 }),
    );
    expect(outcome).toEqual({ ok: false, retry: true, error: 'Connecting took longer than 300 ms.' });
    expect(ms).toBeLessThan(2000);
  });
});

describe('an abort (shutdown)', () => {
  it('after the request left: ended at once, and it may have arrived', async () => {
    hooks.answers.set('/abort', ['hang']);
    const stop = new AbortController();
    const post = postWebhook(hooks.url('/abort'), '{}', { resolve: loopback, timeoutMs: 5000, signal: stop.signal });
    const deadline = Date.now() + 3000;
    while (!hooks.at('/abort').length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    const { outcome, ms } = await timed(post);
    expect(outcome).toEqual({
      ok: false,
      retry: false,
      maybeDelivered: true,
      error: 'Stopped while sending (shutdown): it may have arrived.',
    });
    expect(ms).toBeLessThan(1500);
  });

  it('before the connection was up, or before the lookup ended: not sent, safe to retry', async () => {
    const stop = new AbortController();
    const connecting = postWebhook(silentUrl(), '{}', { resolve: loopback, timeoutMs: 5000, signal: stop.signal });
    const looking = postWebhook('https://hooks.example.com/x', '{}', { resolve: never, signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    const stopped = { ok: false, retry: true, error: 'Stopped before sending (shutdown).' };
    expect((await timed(connecting)).outcome).toEqual(stopped);
    expect((await timed(looking)).outcome).toEqual(stopped);
    expect(await postWebhook(hooks.url('/abort'), '{}', { resolve: loopback, signal: stop.signal })).toEqual(stopped);
  });
});
