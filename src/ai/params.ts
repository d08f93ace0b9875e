import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { notFound } from '../http/errors';
import { CONVERSATION_NOT_FOUND } from './conversations';
import { conversationParam } from './schemas';

/** A conversation id from the address; anything that is not an id is as missing as any other conversation (404). */
export function conversationIdFrom(value: string | undefined): string {
  const parsed = conversationParam.safeParse({ id: value });
  if (!parsed.success) throw notFound(CONVERSATION_NOT_FOUND);
  return parsed.data.id;
}

/** The conversation id of the path: /api/ai/conversations/{id}, /ai/c/{id}. */
export const conversationIdOf = (c: Context<AppEnv>): string => conversationIdFrom(c.req.param('id'));
