import { z } from 'zod';

/** base64url that decodes to exactly `bytes` bytes. */
const base64url = (bytes: number, message: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, message)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, message);

/** A browser's PushSubscription.toJSON(): the push service endpoint (https) and its encryption keys. */
export const pushSubscriptionInput = z.object({
  endpoint: z
    .string({ error: 'endpoint is required.' })
    .max(2000, 'endpoint is too long.')
    .refine((v) => URL.canParse(v) && new URL(v).protocol === 'https:', 'endpoint must be an https:// URL.'),
  keys: z.object(
    {
      p256dh: base64url(65, 'keys.p256dh must be a P-256 public key (base64url).'),
      auth: base64url(16, 'keys.auth must be a 16-byte secret (base64url).'),
    },
    { error: 'keys are required.' },
  ),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** POST /api/me/notifications/read: these of the user's notifications, or all of them when no ids are sent. */
export const markReadInput = z
  .object({
    ids: z
      .array(z.uuid({ error: 'ids must be notification ids (uuids).' }), { error: 'ids must be a list of ids.' })
      .max(500, 'ids may name at most 500 notifications.')
      .optional(),
  })
  .default({});
export type MarkReadInput = z.infer<typeof markReadInput>;
