import { z } from 'zod';
import { COMMENT_MAX, QUOTE_MAX } from './shared';

/** What the comment routes accept (API and forms alike). */

const body = z
  .string({ error: 'body must be text.' })
  .trim()
  .min(1, 'Write a comment first: body must not be empty.')
  .max(COMMENT_MAX, `body must be at most ${COMMENT_MAX} characters.`);

/** POST /api/{base}/{id}/comments */
export const newCommentInput = z.object({
  body,
  parentId: z.uuid({ error: 'parentId must be a comment id.' }).nullable().optional(),
  quote: z
    .string({ error: 'quote must be text.' })
    .trim()
    .max(QUOTE_MAX, `quote must be at most ${QUOTE_MAX} characters.`)
    .nullable()
    .optional(),
});
export type NewCommentInput = z.output<typeof newCommentInput>;

/** PUT /api/comments/{id} */
export const editCommentInput = z.object({ body });

/** The same fields from a form: empty parentId and quote mean none. */
export const newCommentForm = z.object({
  body,
  parentId: z
    .string()
    .optional()
    .transform((s) => s || undefined)
    .pipe(z.uuid({ error: 'parentId must be a comment id.' }).optional()),
  quote: z
    .string()
    .trim()
    .max(QUOTE_MAX, `quote must be at most ${QUOTE_MAX} characters.`)
    .optional()
    .transform((s) => s || undefined),
});

export type { CommentAuthor, CommentView, Thread } from './shared';
