import { relativeTime } from '../../../src/ui/shared';
import { Markdown } from './markdown';
import type { ChatMessage } from './types';

interface BubbleProps {
  message: ChatMessage;
  copied: boolean;
  disabled: boolean;
  onCopy: (m: ChatMessage) => void;
  onCopyCode: (code: string) => void;
  onAction: (label: string) => void;
}

/** One chat bubble: user text, or assistant markdown with its time, Copy button and suggested actions. */
export function Bubble({ message: m, copied, disabled, onCopy, onCopyCode, onAction }: BubbleProps) {
  const assistant = m.type === 'assistant';
  return (
    <div className={`bubble bubble--${m.type}`} data-message-id={m.id} aria-busy={m.isStreaming || undefined}>
      {!assistant ? (
        m.content
      ) : m.content ? (
        <Markdown text={m.content} onCopyCode={onCopyCode} />
      ) : (
        <span className="chat__thinking">
          Thinking...
          <span className="chat__dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
        </span>
      )}
      <div className="bubble__meta">
        <time dateTime={m.timestamp.toISOString()}>{relativeTime(m.timestamp)}</time>
        {assistant && !m.isStreaming && (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={() => onCopy(m)}
            aria-label={copied ? 'Copied' : 'Copy message'}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        )}
      </div>
      {assistant && !m.isStreaming && !!m.suggestedActions?.length && (
        <div className="chat__actions row">
          {m.suggestedActions.map((a) => (
            <button
              key={a}
              type="button"
              className="btn btn--secondary btn--sm"
              disabled={disabled}
              onClick={() => onAction(a)}
            >
              {a}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
