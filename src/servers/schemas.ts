import { z } from 'zod';
import {
  CHECK_FIELD_NAMES,
  CHECK_FIELDS,
  CHECK_KINDS,
  type CheckField,
  ENVIRONMENTS,
  HOSTNAME,
  isIp,
  MESSAGES,
  parseTags,
  SERVER_LIST_LIMIT,
  SERVER_STATUSES,
  TEXT_LIMITS,
  type ServerStatus,
} from './shared';

/** zod schemas of the server API (shared by api and pages); the plain rules and types live in fields.ts. */
export * from './shared';

/** Optional text: trimmed, empty → null, at most `max` characters. */
const optText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => (v ? v : null));

const hostname = optText('Hostname', 255).refine((v) => v === null || HOSTNAME.test(v), MESSAGES.hostname);
const ipAddress = optText('IP address', 45).refine((v) => v === null || isIp(v), MESSAGES.ip);

/** Server form fields (POST and PUT). */
export const serverInput = z.object({
  name: z.string({ error: MESSAGES.nameRequired }).trim().min(1, MESSAGES.nameRequired).max(100, MESSAGES.nameLong),
  hostname,
  ipAddress,
  ...(Object.fromEntries(Object.entries(TEXT_LIMITS).map(([k, [label, max]]) => [k, optText(label, max)])) as Record<
    keyof typeof TEXT_LIMITS,
    ReturnType<typeof optText>
  >),
  environment: z.enum(ENVIRONMENTS, { error: MESSAGES.environment }).default('development'),
  status: z.enum(SERVER_STATUSES, { error: MESSAGES.status }).default('unknown'),
  monitorPort: z.coerce
    .number({ error: MESSAGES.portNumber })
    .int(MESSAGES.portWhole)
    .min(1, MESSAGES.port)
    .max(65535, MESSAGES.port)
    .default(22),
  /** A list, or comma-separated text; absent: none. */
  tags: z
    .union([z.array(z.string({ error: 'Each tag must be text.' })), z.string()], {
      error: 'Tags must be a list of text or comma-separated text.',
    })
    .nullish()
    .transform((value, ctx) => {
      const { tags, error } = parseTags(value);
      if (error) ctx.addIssue({ code: 'custom', message: error });
      return tags;
    }),
});
export type ServerInput = z.infer<typeof serverInput>;

const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(0, `${label} must be between 0 and 100.`)
    .max(100, `${label} must be between 0 and 100.`);

/** PUT /api/servers/{id}/metrics (spec §7), as agents and the form send it. */
export const metricsInput = z.object({
  cpuUsage: percent('cpuUsage'),
  memoryUsage: percent('memoryUsage'),
  diskUsage: percent('diskUsage'),
  uptime: z
    .number({ error: 'uptime must be a number of seconds.' })
    .min(0, 'uptime must be 0 or more seconds.')
    .max(2147483647, 'uptime is too large.'),
  status: z
    .enum(SERVER_STATUSES, { error: 'status must be online, warning, offline, maintenance or unknown.' })
    .optional(),
});
export type MetricsInput = z.infer<typeof metricsInput>;

/** A server–document link. */
export const documentLinkInput = z.object({
  documentId: z.uuid({ error: 'documentId must be a document id.' }),
  /** Absent: the item's type (its kind, or 'document'). */
  documentType: z.string().trim().min(1).max(50, 'documentType must be at most 50 characters.').optional(),
});

/** POST /api/tokens. */
export const tokenInput = z.object({
  name: z
    .string({ error: 'Token name is required.' })
    .trim()
    .min(1, 'Token name is required.')
    .max(100, 'Token name must be at most 100 characters.'),
  serverIds: z
    .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must list the servers.' })
    .min(1, 'serverIds must name at least one server.')
    .max(1000, 'serverIds may name at most 1000 servers.'),
});
export type TokenInput = z.infer<typeof tokenInput>;

/**
 * List filters (?q=&environment=&status=&limit=); unknown values mean "All", and so a limit that is not a whole
 * number from 1 to 100 means "no limit" (the first `limit` servers in natural name order).
 */
export const serverFilters = z.object({
  q: z.string().max(200).optional().catch(undefined),
  environment: z.enum(ENVIRONMENTS).optional().catch(undefined),
  status: z.enum(SERVER_STATUSES).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(SERVER_LIST_LIMIT).optional().catch(undefined),
});

/** A change ops must hear about: a server went offline, or came back from offline (to online or warning). */
export interface StatusChange {
  /** The health check that saw it (a round's changes are named by their checks, so a retry finds the same ones). */
  checkId: string;
  serverId: string;
  name: string;
  address: string | null;
  environment: string;
  from: ServerStatus;
  to: ServerStatus;
  at: Date;
  /** Flapping: 'started' (announced once, flips after it are not), 'settled' (the status it settled on). */
  flapping?: 'started' | 'settled';
}

/** The most checks one server may have (PUT /api/servers/{id}/checks). */
export const MAX_CHECKS = 20;

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number.` })
    .int(`${field} must be a whole number.`)
    .min(min, `${field} must be between ${min} and ${max}.`)
    .max(max, `${field} must be between ${min} and ${max}.`)
    .nullish()
    .transform((v) => v ?? null);

/** One check as sent; unused fields may be absent or null (GET's answer can be sent back). */
const checkInput = z
  .object({
    kind: z.enum(CHECK_KINDS, { error: `kind must be ${CHECK_KINDS.join(', ')}.` }),
    target: z
      .string({ error: 'target is required.' })
      .trim()
      .min(1, 'target is required.')
      .max(255, 'target must be at most 255 characters.')
      .refine((v) => isIp(v) || HOSTNAME.test(v), 'target must be a host name or an IP address.'),
    port: whole('port', 1, 65535),
    path: z
      .string({ error: 'path must be text.' })
      .trim()
      .max(500, 'path must be at most 500 characters.')
      .refine((v) => v.startsWith('/') && !/\s/.test(v), 'path must start with "/" and have no spaces.')
      .nullish()
      .transform((v) => v ?? null),
    expectStatus: whole('expectStatus', 100, 599),
    expectText: z
      .string({ error: 'expectText must be text.' })
      .min(1, 'expectText must not be empty.')
      .max(200, 'expectText must be at most 200 characters.')
      .nullish()
      .transform((v) => v ?? null),
    warnDays: whole('warnDays', 1, 365),
    expectAddress: z
      .string({ error: 'expectAddress must be an IP address.' })
      .trim()
      .refine(isIp, 'expectAddress must be an IP address.')
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((c, ctx) => {
    const used: readonly CheckField[] = CHECK_FIELDS[c.kind];
    for (const field of CHECK_FIELD_NAMES) {
      if (c[field] !== null && !used.includes(field))
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} is not used by a ${c.kind} check.` });
    }
    if (c.kind === 'tcp' && c.port === null)
      ctx.addIssue({ code: 'custom', path: ['port'], message: 'port is required for a tcp check.' });
    if (c.kind === 'dns' && isIp(c.target))
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'target must be a host name for a dns check.' });
  });
export type CheckInput = z.infer<typeof checkInput>;

/** PUT /api/servers/{id}/checks: the whole list, in order; each problem names the check ("Check 2: …"). */
export const checksInput = z
  .array(z.unknown(), { error: 'The body must be a list of checks.' })
  .max(MAX_CHECKS, `A server may have at most ${MAX_CHECKS} checks.`)
  .transform((items, ctx) => {
    const checks: CheckInput[] = [];
    items.forEach((item, i) => {
      const parsed = checkInput.safeParse(item);
      if (parsed.success) {
        checks.push(parsed.data);
        return;
      }
      const [issue] = parsed.error.issues;
      const message = issue.code === 'invalid_type' && !issue.path.length ? 'must be an object.' : issue.message;
      ctx.addIssue({ code: 'custom', path: [i, ...issue.path], message: `Check ${i + 1}: ${message}` });
    });
    return checks;
  });
