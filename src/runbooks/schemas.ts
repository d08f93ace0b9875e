import { z } from 'zod';

export * from './shared';

/** PUT /api/{base}/{id}/servers: the whole set of linked servers (an empty list unlinks them all). */
export const itemServersInput = z.object({
  serverIds: z
    .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must list server ids.' })
    .max(500, 'An item may link at most 500 servers.'),
});
export type ItemServersInput = z.infer<typeof itemServersInput>;

/** The longest text POST /api/servers/mentions reads (1 MiB of UTF-8). */
export const MENTIONS_TEXT_MAX_BYTES = 1024 * 1024;

/** POST /api/servers/mentions: unsaved editor text, less the servers already linked. */
export const mentionsInput = z.object({
  text: z
    .string({ error: 'text must be text.' })
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MENTIONS_TEXT_MAX_BYTES, 'text must be at most 1 MiB.'),
  exclude: z
    .array(z.uuid({ error: 'exclude must list server ids.' }), { error: 'exclude must list server ids.' })
    .max(500, 'exclude may list at most 500 servers.')
    .optional(),
});
export type MentionsInput = z.infer<typeof mentionsInput>;
