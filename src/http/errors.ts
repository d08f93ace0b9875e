import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable';

/** A failure we expect and can explain to the client: status + message (+ machine-readable code). */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new AppError(400, message, code);
export const unauthorized = (message = 'Not signed in.') => new AppError(401, message, 'unauthorized');
export const forbidden = (message = 'You do not have permission to do this.', code?: string) =>
  new AppError(403, message, code ?? 'forbidden');
export const notFound = (message = 'Not found.') => new AppError(404, message, 'not_found');
export const conflict = (message: string, code = 'conflict') => new AppError(409, message, code);
export const tooLarge = (message = 'The request is too large.') => new AppError(413, message, 'too_large');
export const unsupportedMedia = (message: string) => new AppError(415, message, 'unsupported_media_type');
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please try again later.') =>
  new AppError(429, message, 'throttled', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export interface ErrorBody {
  message: string;
  code?: string;
  issues?: { path: string; message: string }[];
}

/** Maps any thrown value to a status and a safe body; unexpected errors never leak details. */
export function toErrorResponse(err: unknown): {
  status: ContentfulStatusCode;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: { message: err.message, ...(err.code ? { code: err.code } : {}) },
      headers: err.headers,
    };
  }
  if (err instanceof ZodError) {
    return { status: 400, body: zodErrorBody(err), headers: {} };
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? 'The request is too large.' : err.message || 'Bad request.';
    return { status, body: { message }, headers: {} };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' },
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, body: { message: 'Something went wrong on our side. Please try again.' }, headers: {} };
}

/** 400 body: the first problem in words, all problems in `issues`. */
export function zodErrorBody(err: ZodError): ErrorBody {
  const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { message: issues[0]?.message ?? 'Invalid input.', code: 'validation_error', issues };
}

export const isApiPath = (c: Context) => c.req.path.startsWith('/api/');
