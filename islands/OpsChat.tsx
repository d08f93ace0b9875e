import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Bubble } from './_lib/chat/Bubble';
import type { ChatMessage, ChatMode } from './_lib/chat/types';
import { useChat } from './_lib/chat/useChat';

/** A question and its answer as the server hands them to the chat. */
export interface ChatExchange {
  query: string;
  response: string;
  suggestedActions: string[];
  at: string;
}

export interface OpsChatProps {
  mode: ChatMode;
  /** Server time of the render (the welcome message's timestamp); null for the client-only panel. */
  now: string | null;
  /** Exchanges the server put in the chat: the one the no-JavaScript form posted, or a conversation "Continue" loaded. */
  exchanges: ChatExchange[];
  /** The conversation they belong to, which follow-ups continue (issue 26); null: the saved one, or a new one. */
  conversationId: string | null;
}

const PLACEHOLDER = {
  page: 'Ask me anything about your infrastructure...',
  panel: 'Ask about servers, documentation, or infrastructure...',
};

function initialFrom(exchanges: ChatExchange[]): ChatMessage[] {
  return exchanges.flatMap((exchange, i): ChatMessage[] => {
    const at = new Date(exchange.at);
    return [
      { id: `server-q${i}`, type: 'user', content: exchange.query, timestamp: at },
      {
        id: `server-a${i}`,
        type: 'assistant',
        content: exchange.response,
        timestamp: at,
        suggestedActions: exchange.suggestedActions,
      },
    ];
  });
}

/** Ops AI chat: one island, two faces — the /ai page and the floating panel opened by the bot button. */
export default function OpsChat({ mode, now, exchanges, conversationId }: OpsChatProps) {
  const panel = mode === 'panel';
  const [open, setOpen] = useState(true); // the panel island mounts on the first click of its button
  const chat = useChat({
    mode,
    now,
    initial: initialFrom(exchanges),
    conversationId,
    onNavigate: () => setOpen(false),
  });
  const list = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [, tick] = useState(0);
  const busy = chat.pending !== 'idle';

  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the triggers: a new message or opening scrolls down
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [chat.messages, open]);

  useEffect(() => {
    if (!panel) return;
    const trigger = document.querySelector<HTMLElement>('[data-island-trigger="OpsChat"]');
    const toggle = (e: Event) => {
      e.preventDefault();
      setOpen((o) => !o);
    };
    const onKey = (e: globalThis.KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    trigger?.addEventListener('click', toggle);
    document.addEventListener('keydown', onKey);
    return () => {
      trigger?.removeEventListener('click', toggle);
      document.removeEventListener('keydown', onKey);
    };
  }, [panel]);

  useEffect(() => {
    if (panel) document.querySelector('[data-island-trigger="OpsChat"]')?.setAttribute('aria-expanded', String(open));
    if (open && panel) field.current?.focus();
  }, [open, panel]);

  useEffect(() => {
    if (!busy) field.current?.focus({ preventScroll: true });
  }, [busy]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void chat.send(chat.input);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void chat.send(chat.input);
    }
  };

  if (panel && !open) return null;

  const countText = `${chat.count} ${chat.count === 1 ? 'message' : 'messages'}`;
  const badge = chat.pending === 'thinking' ? 'Thinking...' : chat.pending === 'streaming' ? 'Streaming...' : null;
  const body = (
    <div className={`chat${panel ? '' : ' card'}`}>
      <header className="card__header chat__header">
        <div>
          <h2 className="card__title">{panel ? 'AI Assistant' : 'Ops AI Chat'}</h2>
          <p className="card__subtitle">{countText}</p>
        </div>
        <div className="row">
          {badge && <span className="badge badge--blue">{badge}</span>}
          {panel ? (
            <>
              <button
                type="button"
                className="icon-button"
                onClick={chat.clear}
                aria-label="Clear conversation"
                title="Clear conversation"
              >
                <svg
                  viewBox="0 0 24 24"
                  width="18"
                  height="18"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                >
                  <path d="M3 6h18M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M9 6V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2" />
                </svg>
              </button>
              <button
                type="button"
                className="icon-button"
                onClick={() => setOpen(false)}
                aria-label="Close"
                title="Close"
              >
                <svg
                  viewBox="0 0 24 24"
                  width="18"
                  height="18"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                >
                  <path d="M18 6L6 18M6 6l12 12" />
                </svg>
              </button>
            </>
          ) : (
            <button type="button" className="btn btn--secondary btn--sm" onClick={chat.clear}>
              Clear Chat
            </button>
          )}
        </div>
      </header>
      <div className="chat__messages" ref={list} role="log" aria-label="Conversation" aria-live="polite">
        {chat.messages.map((m) => (
          <Bubble
            key={m.id}
            message={m}
            copied={chat.copiedId === m.id}
            disabled={busy}
            onCopy={chat.copyMessage}
            onCopyCode={chat.copyCode}
            onAction={chat.runAction}
          />
        ))}
      </div>
      {busy && (
        <p className="chat__status muted small" role="status">
          Streaming response in real-time...
        </p>
      )}
      <form method="post" action="/ai" onSubmit={submit}>
        {/* Without JavaScript the page's form continues the conversation the server answered in. */}
        {conversationId && <input type="hidden" name="conversationId" value={conversationId} />}
        <textarea
          ref={field}
          className="textarea chat__input"
          name="query"
          rows={1}
          aria-label="Message"
          placeholder={PLACEHOLDER[mode]}
          value={chat.input}
          disabled={busy}
          onChange={(e) => chat.setInput(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Send
        </button>
      </form>
    </div>
  );
  return panel ? (
    <div className="chat-panel" role="dialog" aria-label="AI Assistant">
      {body}
    </div>
  ) : (
    body
  );
}
