import type { CommentView, Thread } from '../schemas';
import { formatDateTime } from '../../ui/shared';
import { COMMENT_MAX, commentAnchor, QUOTE_MAX } from './index';

/**
 * An item's comment threads, server-rendered (data in, markup out; no server code, so the knowledge read page and
 * the editor can place it). Every action is a plain form that htmx posts and swaps the whole section with; without
 * JavaScript the form posts and the page comes back at the comment.
 */

export const COMMENTS_ID = 'comments';

export interface CommentsSectionProps {
  /** The item's page path (/knowledge-base/{id}): the forms post under it. */
  itemPath: string;
  threads: Thread[];
  timeZone: string;
  /** A refused new comment: its text kept and why. */
  error?: string;
  values?: { body?: string; quote?: string };
  /** The page's comment script (quote selection, @mention suggestions), when the build has it. */
  script?: string;
}

const htmxPost = (action: string) => ({
  method: 'post',
  action,
  'hx-post': action,
  'hx-target': `#${COMMENTS_ID}`,
  'hx-swap': 'outerHTML',
  'hx-disabled-elt': 'find button',
});

function BodyField({ name, value, label, id }: { name: string; value?: string; label: string; id: string }) {
  return (
    <div className="field">
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        className="textarea comment-form__body"
        required
        maxLength={COMMENT_MAX}
        rows={3}
        placeholder="Write a comment… Type @ to mention someone."
        data-mention-input=""
        defaultValue={value}
      />
    </div>
  );
}

function CommentActions({ comment, thread }: { comment: CommentView; thread?: Thread }) {
  const base = `/comments/${comment.id}`;
  return (
    <div className="comment__actions row">
      {comment.canEdit && (
        <details className="comment__edit">
          <summary className="btn btn--ghost btn--sm">Edit</summary>
          <form className="stack" {...htmxPost(`${base}/edit`)}>
            <BodyField name="body" value={comment.body} label="Edit comment" id={`edit-${comment.id}`} />
            <div className="row">
              <button type="submit" className="btn btn--primary btn--sm">
                Save
              </button>
            </div>
          </form>
        </details>
      )}
      {comment.canEdit && (
        <form
          {...htmxPost(`${base}/delete`)}
          hx-confirm={thread?.replies.length ? 'Delete this comment and its replies?' : 'Delete this comment?'}
        >
          <button type="submit" className="btn btn--ghost btn--sm">
            Delete
          </button>
        </form>
      )}
      {thread?.canResolve && (
        <form {...htmxPost(`${base}/${thread.resolvedAt ? 'reopen' : 'resolve'}`)}>
          <button type="submit" className="btn btn--ghost btn--sm">
            {thread.resolvedAt ? 'Reopen' : 'Resolve'}
          </button>
        </form>
      )}
    </div>
  );
}

function Comment({ comment, thread, timeZone }: { comment: CommentView; thread?: Thread; timeZone: string }) {
  const edited = comment.updatedAt !== comment.createdAt;
  return (
    <article id={commentAnchor(comment.id)} className="comment">
      <p className="comment__meta small">
        <strong>{comment.author?.name ?? 'Deleted user'}</strong>{' '}
        <a className="muted" href={`#${commentAnchor(comment.id)}`}>
          <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt, timeZone)}</time>
        </a>
        {edited && <span className="muted"> (edited)</span>}
      </p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderComment sanitises it */}
      <div className="prose comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      <CommentActions comment={comment} thread={thread} />
    </article>
  );
}

function ThreadBody({ thread, itemPath, timeZone }: { thread: Thread; itemPath: string; timeZone: string }) {
  return (
    <>
      {thread.quote && <blockquote className="comment__quote">{thread.quote}</blockquote>}
      <Comment comment={thread} thread={thread} timeZone={timeZone} />
      {thread.replies.length > 0 && (
        <ol className="comment__replies">
          {thread.replies.map((r) => (
            <li key={r.id}>
              <Comment comment={r} timeZone={timeZone} />
            </li>
          ))}
        </ol>
      )}
      <details className="comment__reply">
        <summary className="btn btn--ghost btn--sm">Reply</summary>
        <form className="stack" {...htmxPost(`${itemPath}/comments`)}>
          <input type="hidden" name="parentId" value={thread.id} />
          <BodyField name="body" label="Reply" id={`reply-${thread.id}`} />
          <div className="row">
            <button type="submit" className="btn btn--primary btn--sm">
              Reply
            </button>
          </div>
        </form>
      </details>
    </>
  );
}

/** "Resolved thread by Ada, resolved by Olga · 2 replies" */
function summaryOf(thread: Thread): string {
  const replies = thread.replies.length;
  return [
    `Resolved thread by ${thread.author?.name ?? 'a deleted user'}`,
    thread.resolvedBy ? `, resolved by ${thread.resolvedBy.name}` : '',
    replies ? ` · ${replies} ${replies === 1 ? 'reply' : 'replies'}` : '',
  ].join('');
}

function ThreadItem({ thread, itemPath, timeZone }: { thread: Thread; itemPath: string; timeZone: string }) {
  const body = <ThreadBody thread={thread} itemPath={itemPath} timeZone={timeZone} />;
  if (!thread.resolvedAt) return <li className="thread">{body}</li>;
  return (
    <li className="thread thread--resolved">
      {/* Collapsed; opened by a link to one of its comments (the page's script) or by a click. */}
      <details data-thread={thread.id}>
        <summary className="small muted">{summaryOf(thread)}</summary>
        {body}
      </details>
    </li>
  );
}

function NewComment({ itemPath, error, values }: Pick<CommentsSectionProps, 'itemPath' | 'error' | 'values'>) {
  return (
    <form className="comment-form stack" {...htmxPost(`${itemPath}/comments`)}>
      <h3 className="comments__subtitle">Add a comment</h3>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="field" data-quote-field="" hidden={!values?.quote}>
        <span className="field__label small">On the passage</span>
        <blockquote className="comment__quote" data-quote-preview="">
          {values?.quote}
        </blockquote>
        <input type="hidden" name="quote" value={values?.quote ?? ''} maxLength={QUOTE_MAX} />
      </div>
      <BodyField name="body" value={values?.body} label="Comment" id="comment-new" />
      <div className="row">
        <button type="submit" className="btn btn--primary btn--sm">
          Comment
        </button>
        <button type="button" className="btn btn--secondary btn--sm" data-comment-on-selection="" hidden>
          Comment on selection
        </button>
      </div>
    </form>
  );
}

/** The item's threads (resolved ones collapsed) and the new-comment form. */
export function CommentsSection({ itemPath, threads, timeZone, error, values, script }: CommentsSectionProps) {
  const count = threads.reduce((n, t) => n + 1 + t.replies.length, 0);
  return (
    <section id={COMMENTS_ID} className="comments" aria-labelledby="comments-title" data-comments-of={itemPath}>
      <h2 id="comments-title" className="comments__title">
        {count ? `Comments (${count})` : 'Comments'}
      </h2>
      {threads.length ? (
        <ol className="comments__threads">
          {threads.map((t) => (
            <ThreadItem key={t.id} thread={t} itemPath={itemPath} timeZone={timeZone} />
          ))}
        </ol>
      ) : (
        <p className="muted comments__empty">No comments yet. Ask a question or suggest a change below.</p>
      )}
      <NewComment itemPath={itemPath} error={error} values={values} />
      {script && <script type="module" src={script} />}
    </section>
  );
}
