import { z } from 'zod';

export * from './shared';

/** PUT /api/{base}/{id}/servers: the whole set of linked servers (an empty list unlinks them all). */
export const itemServersInput = z.object({
  serverIds: z
    .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must list server ids.' })
    .max(500, 'An item may link at most 500 servers.'),
});
export type ItemServersInput = z.infer<typeof itemServersInput>;
