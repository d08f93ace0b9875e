import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CHAT_ASK_TIMEOUT_MS,
  navigateActions,
  pageWelcomeActions,
  panelWelcomeActions,
  queryActions,
  WELCOME_TEXT,
  HISTORY_LIMIT,
} from '../../../src/ai/shared';
import { api } from '../api';
import { toast } from '../toast';
import { copyText } from './clipboard';
import { idleDeadline } from './deadline';
import {
  clearMessages,
  conversationKey,
  loadConversationId,
  loadMessages,
  saveConversationId,
  saveMessages,
  storageKey,
} from './storage';
import { StreamFailed, streamAnswer } from './stream';
import type { ChatMessage, ChatMode } from './types';

/** The chat's behaviour (spec §4–§5), shared by the page and the floating panel. */

export type Pending = 'idle' | 'thinking' | 'streaming';

let seq = 0;
const newId = () => `${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function welcome(mode: ChatMode, at: Date = new Date()): ChatMessage {
  return {
    id: 'welcome',
    type: 'assistant',
    content: WELCOME_TEXT,
    timestamp: at,
    suggestedActions: mode === 'page' ? pageWelcomeActions : panelWelcomeActions,
  };
}

export interface ChatOptions {
  mode: ChatMode;
  now: string | null;
  initial?: ChatMessage[];
  /** The conversation `initial` belongs to (issue 26); without `initial`, the saved one is continued. */
  conversationId?: string | null;
  /** Called after a navigate action (the panel closes). */
  onNavigate?: () => void;
}

export function useChat({ mode, now, initial = [], conversationId = null, onNavigate }: ChatOptions) {
  const key = storageKey(mode);
  const idKey = conversationKey(mode);
  // The server's conversation the next question continues (sent back with it, saved beside the messages).
  const conversation = useRef<string | null>(conversationId);
  const keepConversation = useCallback(
    (id: string | null | undefined) => {
      conversation.current = id ?? null;
      saveConversationId(idKey, conversation.current);
    },
    [idKey],
  );
  const [messages, setMessages] = useState<ChatMessage[]>(() => [
    welcome(mode, now ? new Date(now) : new Date()),
    ...initial,
  ]);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState<Pending>('idle');
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const loaded = useRef(false);
  const busy = useRef(false);
  const latest = useRef(messages);
  latest.current = messages;
  // The latest callback, read when an action runs (the caller may pass a new function each render).
  const navigated = useRef(onNavigate);
  navigated.current = onNavigate;

  // biome-ignore lint/correctness/useExhaustiveDependencies: restores the stored conversation once, on mount
  useEffect(() => {
    const saved = loadMessages(key);
    if (initial.length) keepConversation(conversationId);
    else if (saved) {
      setMessages(saved[0]?.id === 'welcome' ? saved : [welcome(mode), ...saved]);
      conversation.current = loadConversationId(idKey);
    }
    loaded.current = true;
  }, []);

  useEffect(() => {
    if (!loaded.current) return;
    // Only the welcome message: nothing to keep (Clear Chat removes the stored copy).
    if (messages.every((m) => m.id === 'welcome')) clearMessages(key);
    else saveMessages(key, messages);
  }, [messages, key]);

  const send = useCallback(
    async (text: string) => {
      const update = (id: string, change: (m: ChatMessage) => ChatMessage) =>
        setMessages((all) => all.map((m) => (m.id === id ? change(m) : m)));
      const query = text.trim();
      if (!query || busy.current) return;
      busy.current = true;
      const conversationHistory = latest.current
        .filter((m) => m.id !== 'welcome' && !m.isStreaming)
        .slice(-HISTORY_LIMIT)
        .map((m) => ({ type: m.type, content: m.content }));
      const reply: ChatMessage = {
        id: newId(),
        type: 'assistant',
        content: '',
        timestamp: new Date(),
        isStreaming: true,
        suggestedActions: [],
      };
      setMessages((all) => [...all, { id: newId(), type: 'user', content: query, timestamp: new Date() }, reply]);
      setInput('');
      setPending('streaming');
      let body = { query, conversationHistory, conversationId: conversation.current };
      const onChunk = (chunk: string) => update(reply.id, (m) => ({ ...m, content: m.content + chunk }));
      try {
        const done = await streamAnswer(body, onChunk).catch((err: unknown) => {
          // The conversation was deleted meanwhile (here or elsewhere): this question starts a new one.
          if (!(err instanceof StreamFailed && err.status === 404 && body.conversationId)) throw err;
          body = { ...body, conversationId: null };
          return streamAnswer(body, onChunk);
        });
        keepConversation(done.conversationId);
        update(reply.id, (m) => ({
          ...m,
          content: done.fullResponse,
          suggestedActions: done.suggestedActions,
          isStreaming: false,
          timestamp: new Date(),
        }));
      } catch (streamError) {
        console.warn('AI stream failed, using the standard request', streamError);
        setMessages((all) => all.filter((m) => m.id !== reply.id));
        setPending('thinking');
        const deadline = idleDeadline(CHAT_ASK_TIMEOUT_MS);
        try {
          const res = await api<{ response: string; suggestedActions?: string[]; conversationId?: string }>(
            'POST',
            '/api/ai/ask',
            body,
            { signal: deadline.signal },
          );
          keepConversation(res.conversationId);
          setMessages((all) => [
            ...all,
            {
              id: newId(),
              type: 'assistant',
              content: res.response,
              timestamp: new Date(),
              suggestedActions: res.suggestedActions ?? [],
            },
          ]);
        } catch {
          toast('Error', 'Failed to get AI response. Please try again.', 'error');
        } finally {
          deadline.stop();
        }
      } finally {
        busy.current = false;
        setPending('idle');
      }
    },
    [keepConversation],
  );

  const runAction = useCallback(
    (label: string) => {
      const route = navigateActions[label] ?? (label.startsWith('/') ? label : undefined);
      if (route) {
        navigated.current?.();
        window.location.assign(route);
      } else if (queryActions[label]) {
        setInput(queryActions[label]);
        setTimeout(() => void send(queryActions[label]), 100);
      } else if (label !== 'Ask another question') {
        setInput(label);
      }
    },
    [send],
  );

  const clear = useCallback(() => {
    setMessages([welcome(mode)]);
    clearMessages(key);
    keepConversation(null); // the next question starts a new conversation (the saved one stays on /ai)
    toast('Conversation cleared');
  }, [mode, key, keepConversation]);

  const copyMessage = useCallback(async (m: ChatMessage) => {
    try {
      await copyText(m.content);
      setCopiedId(m.id);
      setTimeout(() => setCopiedId((id) => (id === m.id ? null : id)), 2000);
      toast('Message copied to clipboard');
    } catch {
      toast('Error', 'Could not copy to the clipboard.', 'error');
    }
  }, []);

  const copyCode = useCallback(async (code: string) => {
    try {
      await copyText(code);
      toast('Code copied to clipboard');
    } catch {
      toast('Error', 'Could not copy to the clipboard.', 'error');
    }
  }, []);

  return {
    messages,
    input,
    setInput,
    pending,
    send,
    runAction,
    clear,
    copyMessage,
    copyCode,
    copiedId,
    count: messages.filter((m) => m.id !== 'welcome').length,
  };
}
