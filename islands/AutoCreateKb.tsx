import { useEffect, useId, useState } from 'react';
import { AUTO_CREATE_COUNTER, BLANK_CONTENT_MESSAGE, TOO_LARGE_MESSAGE } from '../src/ai/shared';
import type { ServerSummary } from '../src/runbooks/shared';
import { api, ApiError } from './_lib/api';
import { copyText } from './_lib/chat/clipboard';
import { Markdown } from './_lib/chat/markdown';
import { toast } from './_lib/toast';

export interface AutoCreateKbProps {
  /** Start in the input stage (?autocreate=true, or mounted by a click on Get Started). */
  open: boolean;
}

interface Preview {
  title: string;
  category: string | null;
  tags: string[];
  excerpt: string | null;
  content: string;
  /** The servers the text names (issue 23), offered ticked. */
  servers: ServerSummary[];
}

type Stage = 'collapsed' | 'input' | 'preview';
const TRIGGER = '[data-island-trigger="AutoCreateKb"]';

function previewError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || /too large|PayloadTooLargeError/i.test(error.message)) return TOO_LARGE_MESSAGE;
    if (error.status === 400 && error.serverMessage === BLANK_CONTENT_MESSAGE) return BLANK_CONTENT_MESSAGE;
  }
  return 'Failed to generate preview. Please try again.';
}

/** Auto Create KB (spec): collapsed → input (Get Started) → Generating Preview → preview → saved and opened in the editor. */
export default function AutoCreateKb({ open }: AutoCreateKbProps) {
  const id = useId();
  const [stage, setStage] = useState<Stage>(open ? 'input' : 'collapsed');
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  /** The offered servers the user left ticked. */
  const [ticked, setTicked] = useState<Set<string>>(() => new Set());
  const [pending, setPending] = useState<'generating' | 'saving' | null>(null);

  useEffect(() => {
    const trigger = document.querySelector<HTMLElement>(TRIGGER);
    const start = (e: Event) => {
      e.preventDefault();
      setStage('input');
    };
    trigger?.addEventListener('click', start);
    return () => trigger?.removeEventListener('click', start);
  }, []);

  useEffect(() => {
    const trigger = document.querySelector<HTMLElement>(TRIGGER);
    if (trigger) trigger.hidden = stage !== 'collapsed';
  }, [stage]);

  const reset = () => {
    setText('');
    setPreview(null);
    setStage('collapsed');
  };

  const generate = async () => {
    if (pending) return;
    if (!text.trim()) return toast('Error', BLANK_CONTENT_MESSAGE, 'error');
    setPending('generating');
    try {
      const next = await api<Preview>('POST', '/api/ai/auto-create-kb-preview', { content: text });
      setPreview(next);
      setTicked(new Set(next.servers.map((s) => s.id)));
      setStage('preview');
      toast('Preview generated', 'Your knowledge base preview is ready for review.');
    } catch (error) {
      toast('Error', previewError(error), 'error');
    } finally {
      setPending(null);
    }
  };

  const save = async () => {
    if (!preview || pending) return;
    setPending('saving');
    try {
      const { servers, ...fields } = preview;
      const serverIds = servers.filter((s) => ticked.has(s.id)).map((s) => s.id);
      const item = await api<{ id: string }>('POST', '/api/ai/auto-create-kb', { ...fields, serverIds });
      toast('Success', 'Knowledge base document created successfully!');
      reset();
      window.location.assign(`/knowledge-base/${item.id}/edit`);
    } catch {
      toast('Error', 'Failed to save knowledge base document. Please try again.', 'error');
    } finally {
      setPending(null);
    }
  };

  if (stage === 'collapsed') return null;

  if (stage === 'preview' && preview) {
    return (
      <div className="card__body stack auto-create__preview">
        <p className="muted small">Preview</p>
        <h3 className="auto-create__title">{preview.title}</h3>
        <div className="row">
          {preview.category && <span className="badge badge--blue">{preview.category}</span>}
          {preview.tags.map((t) => (
            <span key={t} className="tag">
              {t}
            </span>
          ))}
        </div>
        {preview.excerpt && <p className="muted">{preview.excerpt}</p>}
        {preview.servers.length > 0 && (
          <fieldset className="field auto-create__servers">
            <legend className="field__label">Link to the servers it mentions</legend>
            {preview.servers.map((s) => (
              <label key={s.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={ticked.has(s.id)}
                  onChange={(e) => {
                    const next = new Set(ticked);
                    if (e.target.checked) next.add(s.id);
                    else next.delete(s.id);
                    setTicked(next);
                  }}
                />
                {s.name}
                {s.ipAddress && <span className="muted small">{s.ipAddress}</span>}
              </label>
            ))}
          </fieldset>
        )}
        <div className="auto-create__content">
          <Markdown
            text={preview.content}
            onCopyCode={(code) => void copyText(code).then(() => toast('Code copied to clipboard'))}
          />
        </div>
        <div className="row">
          <button type="button" className="btn btn--secondary" onClick={() => setStage('input')} disabled={!!pending}>
            Back to Edit
          </button>
          <button type="button" className="btn btn--primary" onClick={save} disabled={!!pending}>
            {pending === 'saving' ? 'Saving...' : 'Save Document'}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="card__body stack">
      <p className="muted">
        Paste messy notes, e-mails or commands and AI turns them into a structured knowledge base article.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          Content
        </label>
        <textarea
          id={`${id}-text`}
          className="textarea"
          rows={10}
          placeholder="Paste your content here..."
          value={text}
          disabled={pending === 'generating'}
          onChange={(e) => setText(e.target.value)}
        />
        <p className="field__hint" aria-live="polite">
          {text.length} / {AUTO_CREATE_COUNTER} characters
        </p>
      </div>
      <div className="row">
        <button type="button" className="btn btn--primary" onClick={generate} disabled={!text.trim() || !!pending}>
          {pending === 'generating' ? 'Generating Preview...' : 'Generate Preview'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={reset} disabled={!!pending}>
          Cancel
        </button>
      </div>
    </div>
  );
}
