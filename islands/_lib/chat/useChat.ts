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
import { clearMessages, loadMessages, saveMessages, storageKey } from './storage';
import { streamAnswer } from './stream';
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
  /** Called after a navigate action (the panel closes). */
  onNavigate?: () => void;
}

export function useChat({ mode, now, initial = [], onNavigate }: ChatOptions) {
  const key = storageKey(mode);
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
    if (saved && !initial.length) setMessages(saved[0]?.id === 'welcome' ? saved : [welcome(mode), ...saved]);
    loaded.current = true;
  }, []);

  useEffect(() => {
    if (!loaded.current) return;
    // Only the welcome message: nothing to keep (Clear Chat removes the stored copy).
    if (messages.every((m) => m.id === 'welcome')) clearMessages(key);
    else saveMessages(key, messages);
  }, [messages, key]);

  const send = useCallback(async (text: string) => {
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
    const body = { query, conversationHistory };
    try {
      const done = await streamAnswer(body, (chunk) => update(reply.id, (m) => ({ ...m, content: m.content + chunk })));
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
        const res = await api<{ response: string; suggestedActions?: string[] }>('POST', '/api/ai/ask', body, {
          signal: deadline.signal,
        });
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
  }, []);

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
    toast('Conversation cleared');
  }, [mode, key]);

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
