import { z } from 'zod';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS } from './shared';

/** zod schemas of the webhooks API and page (the URL's host is checked against configuration by the service). */

/** POST /api/admin/webhooks: where, signed with what, which events (["*"]: all), in which body shape. */
export const endpointInput = z.object({
  url: z
    .string({ error: 'url is required.' })
    .trim()
    .min(1, 'url is required.')
    .max(2000, 'url must be at most 2000 characters.'),
  /** Absent or empty: one is made (and answered once). */
  secret: z
    .string({ error: 'secret must be text.' })
    .trim()
    .max(200, 'secret must be at most 200 characters.')
    .refine((s) => s === '' || s.length >= 16, 'secret must be at least 16 characters (or left empty to make one).')
    .optional(),
  events: z
    .array(z.enum(['*', ...WEBHOOK_EVENTS], { error: `events must be "*" or among ${WEBHOOK_EVENTS.join(', ')}.` }), {
      error: 'events must be a list of event names.',
    })
    .min(1, 'events must name at least one event (or "*" for all).')
    .max(WEBHOOK_EVENTS.length + 1, 'events names an event twice.')
    .transform((list) => (list.includes('*') ? ['*' as const] : [...new Set(list)])),
  format: z.enum(WEBHOOK_FORMATS, { error: 'format must be json, slack or teams.' }).optional(),
});
export type EndpointInput = z.infer<typeof endpointInput>;

/** An id in the path: anything that is not a uuid is simply not found. */
export const idParam = z.object({ id: z.uuid({ error: 'Not found.' }) });
