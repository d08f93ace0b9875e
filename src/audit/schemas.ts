import { z } from 'zod';
import { decodeCursor } from './cursor';

/** A GET form sends every field, empty ones as ''; those mean "no filter". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

const DAY = /^[12]\d{3}-\d{2}-\d{2}$/;
const INSTANT = /^[12]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-](0\d|1[0-5]):[0-5]\d)$/;

/** A calendar day that exists (no 30 February): it survives a round trip through Date. */
const realDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

const isDateOrInstant = (v: string) =>
  (DAY.test(v) || (INSTANT.test(v) && !Number.isNaN(Date.parse(v)))) && realDay(v.slice(0, 10));

const dateOrInstant = (name: string) =>
  z.string().refine(isDateOrInstant, {
    message: `${name} must be a date (YYYY-MM-DD) or a date and time with an offset (ISO 8601).`,
  });

const cursor = z.string().transform((text, ctx) => {
  const decoded = decodeCursor(text);
  if (!decoded) ctx.addIssue({ code: 'custom', message: 'cursor is not valid: use the nextCursor of a page.' });
  return decoded ?? z.NEVER;
});

/** The audit trail's filters (actor = a user id; from/to = days in the reader's timezone, or instants). */
export const auditFilterQuery = z.object({
  actor: optional(z.uuid({ error: 'actor must be a user id.' })),
  action: optional(z.string().trim().max(100, { error: 'action is at most 100 characters.' })),
  entityType: optional(z.string().trim().max(50, { error: 'entityType is at most 50 characters.' })),
  entityId: optional(z.string().trim().max(100, { error: 'entityId is at most 100 characters.' })),
  from: optional(dateOrInstant('from')),
  to: optional(dateOrInstant('to')),
});

/** GET /api/admin/audit and /admin/audit: the filters, a page's cursor and its size (default 50, at most 200). */
export const auditPageQuery = auditFilterQuery.extend({
  cursor: optional(cursor),
  limit: optional(
    z.coerce.number({ error: 'limit must be a number.' }).int().min(1).max(200, { error: 'limit is at most 200.' }),
  ),
});

/** An entity's Activity tab: only the cursor of an older page. */
export const activityQuery = z.object({ cursor: optional(cursor) });

export type AuditPageQuery = z.output<typeof auditPageQuery>;
