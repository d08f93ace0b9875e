import { z } from 'zod';

/** The user id in /api/admin/{approve,reject}-user/:id. */
export const userIdParam = z.object({ id: z.uuid({ error: 'Invalid user id' }) });
