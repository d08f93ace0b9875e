import { z } from 'zod';

/** POST /api/me/offline: the item to keep. */
export const keepInput = z.object({
  itemId: z.uuid({ error: 'itemId must be the id of a knowledge item or document.' }),
});

/** An item id in the path. */
export const itemIdParam = z.object({
  itemId: z.uuid({ error: 'itemId must be the id of a knowledge item or document.' }),
});

/** The read page's Keep offline form: on keeps, off lets go; `back=offline` returns to /offline. */
export const keepForm = z.object({
  keep: z.enum(['on', 'off'], { error: 'keep must be "on" or "off".' }),
  back: z.enum(['offline']).optional(),
});
