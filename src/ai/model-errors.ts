import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { AppError } from '../http/errors';
import { AskerGone, ModelTimeout } from './answer-clock';

/** A failed model call as the answer the asker gets: 502, 503 (with the model's Retry-After) or 504. */
export function modelFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ModelTimeout || err instanceof APIConnectionTimeoutError) {
    return new AppError(504, 'The AI model did not answer in time. Please try again.', 'ai_timeout');
  }
  if (err instanceof AskerGone) return new AppError(503, 'The question was abandoned.', 'ai_abandoned');
  if (err instanceof APIConnectionError)
    return new AppError(503, 'The AI model cannot be reached. Please try again later.', 'ai_unreachable');
  if (err instanceof APIError && (err.status === 429 || err.status === 503)) {
    const retryAfter = err.headers?.get('retry-after');
    const headers: Record<string, string> =
      retryAfter && validRetryAfter(retryAfter) ? { 'Retry-After': retryAfter } : {};
    return new AppError(503, 'The AI model is busy. Please try again later.', 'ai_busy', headers);
  }
  // Any other status, an error event inside the stream, or a reply that cannot be read.
  return new AppError(502, 'The AI model returned an error. Please try again.', 'ai_model_error');
}

/** Retry-After is delay-seconds or an HTTP date. */
const validRetryAfter = (value: string) => /^\d{1,9}$/.test(value) || !Number.isNaN(Date.parse(value));
