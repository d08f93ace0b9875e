/** Browser-safe rules of comments (issue 22): limits and how a mention is written. */

/** A comment's body is at most this many characters. */
export const COMMENT_MAX = 10_000;
/** A quoted passage is at most this many characters. */
export const QUOTE_MAX = 1_000;

/**
 * A mention: `@` followed by an account's e-mail address, not glued to a word before it (`me@ada@x.com` is not one).
 * The address ends before trailing punctuation (`@ada@example.com.` mentions ada@example.com).
 */
export const MENTION = /(^|[^\w@.+-])@([\w.%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;

/** The e-mail addresses a body mentions, lower-cased, each once. */
export function mentionedEmails(body: string): string[] {
  const found = new Set<string>();
  for (const m of body.matchAll(MENTION)) found.add(m[2].toLowerCase());
  return [...found];
}

/** The anchor of one comment on its item's page. */
export const commentAnchor = (commentId: string) => `comment-${commentId}`;

/** The comments as threads: roots oldest first, each with its replies. */
export function threadsOf(list: CommentView[]): Thread[] {
  const threads = new Map<string, Thread>();
  for (const c of list) if (!c.parentId) threads.set(c.id, { ...c, replies: [] });
  for (const c of list) if (c.parentId) threads.get(c.parentId)?.replies.push(c);
  return [...threads.values()];
}

export interface CommentAuthor {
  id: string;
  name: string;
  email: string;
}

/** One comment as the API answers it (dates as ISO strings). */
export interface CommentView {
  id: string;
  body: string;
  html: string;
  author: CommentAuthor | null;
  createdAt: string;
  updatedAt: string;
  /** The thread's root; null for a root. */
  parentId: string | null;
  quote: string | null;
  resolvedAt: string | null;
  resolvedBy: CommentAuthor | null;
  /** What the asking user may do to it. */
  canEdit: boolean;
  canResolve: boolean;
}

/** A root comment with its replies, oldest first. */
export interface Thread extends CommentView {
  replies: CommentView[];
}
