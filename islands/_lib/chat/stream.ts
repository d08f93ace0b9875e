/** Reads /api/ai/ask-stream: `data: {chunk}` lines, then `{done…}` or `{error}`; `: keep-alive` comments meanwhile. */
import { CHAT_STREAM_IDLE_MS } from '../../../src/ai/shared';
import { idleDeadline } from './deadline';

export interface StreamDone {
  fullResponse: string;
  suggestedActions: string[];
  interactionId?: string;
  conversationId?: string;
}

/** The stream did not answer; `status` when the server refused it (404: the conversation is gone). */
export class StreamFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Streams an answer, calling onChunk per piece; resolves on done, throws on an error event, a broken stream
 * or CHAT_STREAM_IDLE_MS without a byte (the server sends keep-alive comments, so silence means it is lost).
 */
export async function streamAnswer(body: unknown, onChunk: (chunk: string) => void): Promise<StreamDone> {
  const deadline = idleDeadline(CHAT_STREAM_IDLE_MS);
  try {
    return await read(body, onChunk, deadline);
  } finally {
    deadline.stop();
  }
}

async function read(
  body: unknown,
  onChunk: (chunk: string) => void,
  deadline: ReturnType<typeof idleDeadline>,
): Promise<StreamDone> {
  const res = await fetch('/api/ai/ask-stream', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: deadline.signal,
  });
  if (!res.ok || !res.body) throw new StreamFailed(`${res.status}: stream unavailable`, res.status);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    deadline.touch();
    buffer += value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      let data: {
        chunk?: string;
        done?: boolean;
        fullResponse?: string;
        suggestedActions?: string[];
        interactionId?: string;
        conversationId?: string;
        error?: string;
      };
      try {
        data = JSON.parse(line.slice(6));
      } catch (error) {
        console.warn('bad stream chunk', error); // spec: a bad chunk is only logged
        continue;
      }
      if (data.error) throw new StreamFailed(data.error);
      if (typeof data.chunk === 'string') onChunk(data.chunk);
      if (data.done)
        return {
          fullResponse: data.fullResponse ?? '',
          suggestedActions: data.suggestedActions ?? [],
          interactionId: data.interactionId,
          conversationId: data.conversationId,
        };
    }
  }
  throw new StreamFailed('stream ended without done');
}
