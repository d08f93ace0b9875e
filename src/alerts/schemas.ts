import { z } from 'zod';
import { ENVIRONMENTS } from '../servers/shared';
import { ALERT_CHANNELS, WEBHOOK_FORMATS } from './shared';

/** zod schemas of the alerts API and pages. */

const optText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => (v ? v : null));

/** A form's checkbox: "on" when ticked, absent otherwise; JSON sends a boolean. */
const flag = z.union([z.boolean(), z.literal('on').transform(() => true), z.literal('off').transform(() => false)], {
  error: 'must be true or false.',
});

/** POST /api/admin/alert-rules (the webhook host is checked against configuration by the service). */
export const alertRuleInput = z
  .object({
    name: z
      .string({ error: 'name is required.' })
      .trim()
      .min(1, 'name is required.')
      .max(100, 'name must be at most 100 characters.'),
    enabled: flag.default(true),
    environment: z
      .enum(ENVIRONMENTS, { error: 'environment must be production, staging or development.' })
      .nullish()
      .or(z.literal('').transform(() => null))
      .transform((v) => v ?? null),
    teamOwner: optText('teamOwner', 100),
    /** Only servers with this tag (compared in lower case, as servers store them). */
    tag: optText('tag', 50).transform((v) => v?.toLowerCase() ?? null),
    channel: z.enum(ALERT_CHANNELS, { error: 'channel must be email, push or webhook.' }),
    userIds: z
      .array(z.uuid({ error: 'userIds must be user ids.' }), { error: 'userIds must be a list of user ids.' })
      .max(100, 'userIds may name at most 100 users.')
      .default([]),
    webhookUrl: optText('webhookUrl', 2000),
    webhookFormat: z
      .enum(WEBHOOK_FORMATS, { error: 'webhookFormat must be json, slack or teams.' })
      .nullish()
      .or(z.literal('').transform(() => null))
      .transform((v) => v ?? null),
    repeatMinutes: z.coerce
      .number({ error: 'repeatMinutes must be a number of minutes.' })
      .int('repeatMinutes must be a whole number of minutes.')
      .min(1, 'repeatMinutes must be at least 1.')
      .max(10_080, 'repeatMinutes must be at most 10080 (a week).'),
    sendRecovery: flag.default(true),
  })
  .superRefine((v, ctx) => {
    if (v.channel === 'webhook' && !v.webhookUrl)
      ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'webhookUrl is required for a webhook rule.' });
    // Runs on the raw values too when a field is already wrong.
    if (v.channel !== 'webhook' && Array.isArray(v.userIds) && v.userIds.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['userIds'],
        message: `userIds must name who receives ${v.channel} alerts.`,
      });
  });
export type AlertRuleInput = z.infer<typeof alertRuleInput>;

/** An id in the path: anything that is not a uuid is simply not found. */
export const idParam = z.object({ id: z.uuid({ error: 'Not found.' }) });
