/** What a client is told while the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Please try again shortly.';

/** Seconds a client should wait before trying again (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL error codes that mean "cannot be served now" rather than "this request is wrong":
 * class 08 (connection exceptions), 53300 too many connections, 57014 query canceled (our statement_timeout),
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, recovering).
 */
const UNAVAILABLE_CODES = /^(08\w{3}|53300|57014|57P0[123])$/;

/** Socket errors on the way to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres and pg-pool report these without a code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated', // …unexpectedly, …due to connection timeout
  'timeout exceeded when trying to connect', // no free pooled connection in connectionTimeoutMillis
  'Query read timeout', // no answer in query_timeout (a frozen server)
  'is not queryable', // a connection that already broke or was closed
];

/** True when err (or an error it wraps, as drizzle does) says the database is unreachable, overloaded or stopping. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.test(code) || NETWORK_CODES.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
