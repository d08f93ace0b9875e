import type { ChatMessage } from './types';

/** Chat history in session storage, timestamps revived as dates; anything unreadable → null (welcome). */

export const storageKey = (mode: 'page' | 'panel') => (mode === 'page' ? 'ai-chat-messages' : 'ai-chat-panel-messages');

/** Issue 26: the saved conversation's id, beside its messages (the messages key keeps the spec's shape). */
export const conversationKey = (mode: 'page' | 'panel') => `${storageKey(mode)}-conversation`;

const isMessage = (
  m: unknown,
): m is { id: string; type: 'user' | 'assistant'; content: string; timestamp: string; suggestedActions?: unknown } => {
  const r = m as Record<string, unknown>;
  return (
    !!r &&
    typeof r.id === 'string' &&
    (r.type === 'user' || r.type === 'assistant') &&
    typeof r.content === 'string' &&
    typeof r.timestamp === 'string'
  );
};

/** The saved messages, or null when there are none or they cannot be read. */
export function loadMessages(key: string): ChatMessage[] | null {
  try {
    const raw = sessionStorage.getItem(key);
    if (!raw) return null;
    const data = JSON.parse(raw) as unknown;
    if (!Array.isArray(data) || !data.length || !data.every(isMessage)) return null;
    const messages = data.map((m) => ({
      id: m.id,
      type: m.type,
      content: m.content,
      timestamp: new Date(m.timestamp),
      suggestedActions: Array.isArray(m.suggestedActions)
        ? m.suggestedActions.filter((a): a is string => typeof a === 'string')
        : [],
    }));
    return messages.some((m) => Number.isNaN(m.timestamp.getTime())) ? null : messages;
  } catch {
    return null;
  }
}

/** Saves finished messages (a reply still streaming is not saved). */
export function saveMessages(key: string, messages: ChatMessage[]): void {
  try {
    const finished = messages
      .filter((m) => !m.isStreaming)
      .map(({ isStreaming: _s, ...m }) => ({ ...m, timestamp: m.timestamp.toISOString() }));
    sessionStorage.setItem(key, JSON.stringify(finished));
  } catch {
    /* storage full or disabled: the chat still works for this page */
  }
}

export function clearMessages(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    /* ignore */
  }
}

/** The conversation id saved beside the messages, or null. */
export function loadConversationId(key: string): string | null {
  try {
    const id = sessionStorage.getItem(key);
    return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Saves the conversation id (null forgets it). */
export function saveConversationId(key: string, id: string | null): void {
  try {
    if (id) sessionStorage.setItem(key, id);
    else sessionStorage.removeItem(key);
  } catch {
    /* storage full or disabled: follow-ups start a new conversation */
  }
}
