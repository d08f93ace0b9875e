/** Reads /api/ai/ask-stream: `data: {chunk}` lines, then `{done…}` or `{error}`. */

export interface StreamDone {
  fullResponse: string;
  suggestedActions: string[];
  interactionId?: string;
}

export class StreamFailed extends Error {}

/** Streams an answer, calling onChunk per piece; resolves on done, throws StreamFailed on error or a broken stream. */
export async function streamAnswer(body: unknown, onChunk: (chunk: string) => void, signal?: AbortSignal): Promise<StreamDone> {
  const res = await fetch('/api/ai/ask-stream', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body) throw new StreamFailed(`${res.status}: stream unavailable`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      let data: { chunk?: string; done?: boolean; fullResponse?: string; suggestedActions?: string[]; interactionId?: string; error?: string };
      try {
        data = JSON.parse(line.slice(6));
      } catch (error) {
        console.warn('bad stream chunk', error); // spec: a bad chunk is only logged
        continue;
      }
      if (data.error) throw new StreamFailed(data.error);
      if (typeof data.chunk === 'string') onChunk(data.chunk);
      if (data.done) return { fullResponse: data.fullResponse ?? '', suggestedActions: data.suggestedActions ?? [], interactionId: data.interactionId };
    }
  }
  throw new StreamFailed('stream ended without done');
}
