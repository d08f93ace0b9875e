import { useEffect, useState } from 'react';
import type { CommentView, Thread } from '../../../src/comments/schemas';
import { threadsOf } from '../../../src/comments/shared';
import { api } from '../api';

/**
 * The comments beside the category view's preview (issue 22): the open threads, read-only, and how many are resolved;
 * replying, resolving and the rest happen on the item's page, which the link opens at its comments.
 */
export function PreviewComments({ base, id, href }: { base: string; id: string; href: string }) {
  const [threads, setThreads] = useState<Thread[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setThreads(null);
    setFailed(false);
    api<CommentView[]>('GET', `${base}/${id}/comments`).then(
      (list) => current && setThreads(threadsOf(list)),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [base, id]);
  const open = threads?.filter((t) => !t.resolvedAt) ?? [];
  const resolved = (threads?.length ?? 0) - open.length;
  return (
    <section className="comments comments--preview" aria-label="Comments">
      <h3 className="comments__title">Comments</h3>
      {failed && <p className="muted">The comments could not be loaded.</p>}
      {!threads && !failed && <p className="muted">Loading comments…</p>}
      {threads && !threads.length && <p className="muted comments__empty">No comments yet.</p>}
      {open.length > 0 && (
        <ol className="comments__threads">
          {open.map((t) => (
            <li key={t.id} className="thread">
              {t.quote && <blockquote className="comment__quote">{t.quote}</blockquote>}
              <p className="comment__meta small">
                <strong>{t.author?.name ?? 'Deleted user'}</strong>
                {t.replies.length > 0 && (
                  <span className="muted">{` · ${t.replies.length} ${t.replies.length === 1 ? 'reply' : 'replies'}`}</span>
                )}
              </p>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server sanitises comment html */}
              <div className="prose comment__body" dangerouslySetInnerHTML={{ __html: t.html }} />
            </li>
          ))}
        </ol>
      )}
      {resolved > 0 && <p className="small muted">{`${resolved} resolved ${resolved === 1 ? 'thread' : 'threads'}`}</p>}
      <p className="small">
        <a href={`${href}#comments`}>
          {threads?.length ? 'Reply or comment on the item’s page' : 'Comment on the item’s page'}
        </a>
      </p>
    </section>
  );
}
