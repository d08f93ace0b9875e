import { describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../src/db/unavailable';
import { toErrorResponse } from '../../src/http/errors';

/** An error as drizzle throws it: "Failed query: …" wrapping the driver's error. */
const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1'), { cause });
const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('a database that cannot serve now', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['connection lost', new Error('Connection terminated unexpectedly')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['no free pooled connection in time', new Error('timeout exceeded when trying to connect')],
    ['no answer (frozen server)', new Error('Query read timeout')],
    ['a connection that already broke', new Error('Client has encountered a connection error and is not queryable')],
    ['too many connections (53300)', pgError('53300', 'sorry, too many clients already')],
    ['admin shutdown (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['our statement timeout (57014)', pgError('57014', 'canceling statement due to statement timeout')],
    ['connection exception (08006)', pgError('08006')],
  ])('%s: 503 with a message and Retry-After', (_, cause) => {
    const err = wrapped(cause);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(toErrorResponse(err)).toEqual({
      status: 503,
      body: { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' },
      headers: { 'Retry-After': '5' },
    });
  });

  it.each([
    ['a unique violation (23505)', wrapped(pgError('23505', 'duplicate key value'))],
    ['a syntax error (42601)', wrapped(pgError('42601', 'syntax error'))],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('%s stays a 500', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(toErrorResponse(err).status).toBe(500);
  });
});
