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
