import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One webhook POST with a deadline, to an address vetted first: the caller's `resolve` turns the URL's host into
 * the one address it allows (or says why not), and the request connects to that address only, so a name cannot
 * answer differently between the check and the connect. The outcome says whether a failure is safe to retry for a
 * sender that must never deliver twice: only a failure known to have happened before the request reached the
 * receiver (no connection, no TLS session) or an answer that says it was not taken (408, 429, 5xx); an error after
 * the connection was up (a timeout waiting for the answer, a reset) may have delivered it. A sender that delivers at
 * least once (with an id the receiver dedupes on) retries every failure but `refused`.
 * One deadline covers it all (the lookup, the connection, the answer); the connection (TCP, and TLS for https) must
 * be up within the shorter connect deadline. An abort (shutdown) ends the post at once, as a timeout would.
 * Used by alert webhooks (src/alerts) and outgoing webhooks (src/webhooks).
 */

export type WebhookOutcome =
  | { ok: true; status: number; answer?: string }
  | {
      ok: false;
      retry: boolean;
      error: string;
      /** The receiver's status code, when it answered. */
      status?: number;
      answer?: string;
      /** The address policy refused the host: it stays refused. */
      refused?: boolean;
      /** The request was sent and no answer came: it may have arrived. */
      maybeDelivered?: boolean;
    };

/** Where a host may be reached: the one vetted address, or why not (a reason starting "Refused" stays refused). */
export type VettedAddress = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

export interface PostOptions {
  resolve: (host: string) => Promise<VettedAddress>;
  headers?: Record<string, string>;
  userAgent?: string;
  /** The whole post: lookup, connection and answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The connection (TCP, and the TLS session for https) must be up within this (CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** Ends the post at once (shutdown); the outcome says whether it may have arrived. */
  signal?: AbortSignal;
  /** Keep the first this many characters of the answer's body (0: read and drop it). */
  keepAnswer?: number;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A receiver that does not take the connection within this is not waited for any longer (well inside the total). */
export const CONNECT_TIMEOUT_MS = 5_000;

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** A lookup that answers the vetted address whatever the name (TLS still checks the certificate against the name). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const STOPPED_BEFORE = 'Stopped before sending (shutdown).';

/** The lookup, unless the deadline or an abort comes first. */
function lookupWithin(
  lookup: Promise<VettedAddress>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<VettedAddress | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish('timeout'), ms);
    const onAbort = () => finish('aborted');
    function finish(r: VettedAddress | 'timeout' | 'aborted') {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    lookup.then(finish, (err: unknown) =>
      finish({ ok: false, reason: `host name lookup failed (${err instanceof Error ? err.message : String(err)})` }),
    );
  });
}

/** POSTs `payload` (JSON text) to `url` at the address `resolve` vetted, all within `timeoutMs`. */
export async function postWebhook(url: string, payload: string, opts: PostOptions): Promise<WebhookOutcome> {
  const u = new URL(url);
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const startedAt = Date.now();
  if (opts.signal?.aborted) return { ok: false, retry: true, error: STOPPED_BEFORE };
  const target = await lookupWithin(opts.resolve(u.hostname), timeoutMs, opts.signal);
  if (target === 'aborted') return { ok: false, retry: true, error: STOPPED_BEFORE };
  if (target === 'timeout')
    return { ok: false, retry: true, error: `Looking up ${u.hostname} took longer than ${timeoutMs} ms.` };
  if (!target.ok) {
    // A name that does not resolve may resolve later; an address the policy refuses stays refused.
    const refused = target.reason.startsWith('Refused');
    return { ok: false, retry: !refused, refused, error: `The webhook host ${u.hostname}: ${target.reason}.` };
  }
  if (opts.signal?.aborted) return { ok: false, retry: true, error: STOPPED_BEFORE };
  const leftMs = Math.max(1, timeoutMs - (Date.now() - startedAt));
  return post(u, Buffer.from(payload), pinnedLookup(target.address, target.family), opts, timeoutMs, leftMs);
}

/** Collects at most `chars` characters of a body (4 bytes a character at most), dropping the rest. */
function answerReader(chars: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    add(chunk: Buffer) {
      if (bytes >= chars * 4) return;
      chunks.push(chunk);
      bytes += chunk.length;
    },
    text: () =>
      chars
        ? Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\uFFFD$/, '')
            .slice(0, chars)
        : undefined,
  };
}

function post(
  u: URL,
  payload: Buffer,
  lookup: LookupFunction,
  opts: PostOptions,
  timeoutMs: number,
  leftMs: number,
): Promise<WebhookOutcome> {
  const client = u.protocol === 'https:' ? https : http;
  const connectMs = Math.min(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, leftMs);
  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    const done = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(connectTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    /** Ends the request: what it may have done depends on whether the connection was up. */
    const end = (sent: string, notSent: string) => {
      done(
        connected
          ? { ok: false, retry: false, maybeDelivered: true, error: sent }
          : { ok: false, retry: true, error: notSent },
      );
      req.destroy();
    };
    const onAbort = () => end('Stopped while sending (shutdown): it may have arrived.', STOPPED_BEFORE);
    const req = client.request(
      u,
      {
        method: 'POST',
        agent: false,
        lookup,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': payload.length,
          'User-Agent': opts.userAgent ?? 'OpsHub/1',
          ...opts.headers,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const answer = answerReader(opts.keepAnswer ?? 0);
        res.on('data', (chunk: Buffer) => answer.add(chunk));
        res.on('end', () =>
          done(
            status >= 200 && status < 300
              ? { ok: true, status, answer: answer.text() }
              : {
                  ok: false,
                  retry: retryable(status),
                  status,
                  answer: answer.text(),
                  error: `The webhook answered ${status}.`,
                },
          ),
        );
        res.on('error', () =>
          done({ ok: false, retry: false, maybeDelivered: true, status, error: 'The webhook answer broke off.' }),
        );
      },
    );
    req.on('socket', (socket) => {
      socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    req.on('error', (err) =>
      done(
        connected
          ? { ok: false, retry: false, maybeDelivered: true, error: `No answer after sending (${err.message}).` }
          : { ok: false, retry: true, error: err.message },
      ),
    );
    const timer = setTimeout(
      () => end(`No answer within ${timeoutMs} ms after sending.`, 'Connecting timed out.'),
      leftMs,
    );
    const connectTimer = setTimeout(() => {
      if (!connected) end('', `Connecting took longer than ${connectMs} ms.`);
    }, connectMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(payload);
  });
}
