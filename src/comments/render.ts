import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { renderMarkdown } from '../markdown/render';
import { MENTION, mentionedEmails } from './shared';

/**
 * A comment's body as HTML: markdown sanitised like item content, each mention of an account shown as the person's
 * name (a plain span; every signed-in user sees the team directory, so names reveal nothing new).
 */

/** An account's name by lower-cased e-mail. */
export type NamesByEmail = Map<string, string>;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The names of the accounts these bodies mention. */
export async function mentionedNames(db: Db, bodies: readonly string[]): Promise<NamesByEmail> {
  const emails = [...new Set(bodies.flatMap(mentionedEmails))];
  if (!emails.length) return new Map();
  const email = sql<string>`lower(${users.email})`;
  const rows = await db
    .select({ email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(email, emails));
  return new Map(
    rows.map((r) => [r.email, [r.firstName, r.lastName].filter(Boolean).join(' ').trim() || r.email] as const),
  );
}

/** Marks no markdown can produce or keep: a mention is swapped for one before rendering, for its span after. */
const token = (i: number) => `OPSHUBMENTION${i}END`;

export function renderComment(body: string, names: NamesByEmail): string {
  const spans: string[] = [];
  const marked = body.replace(MENTION, (all, before: string, email: string) => {
    const name = names.get(email.toLowerCase());
    if (!name) return all;
    spans.push(`<span class="mention" title="${escapeHtml(email)}">@${escapeHtml(name)}</span>`);
    return `${before}${token(spans.length - 1)}`;
  });
  const html = renderMarkdown(marked);
  return spans.reduce((out, span, i) => out.replaceAll(token(i), span), html);
}
