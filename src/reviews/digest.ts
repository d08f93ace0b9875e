import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { DEFAULT_TIMEZONE } from '../db/schema';
import { itemHref } from '../knowledge/shared';
import { enqueueMail, reviewDigestMail } from '../mail/service';
import { notifyUsers } from '../notifications/service';
import { formatDate } from '../ui/shared';

/** The weekly review digest job's name (job_runs.job, its lock and its /admin/jobs row). */
export const REVIEW_DIGEST_JOB = 'review-digest';

/** A digest lists at most this many items (the oldest due first); the link leads to the rest. */
const MAX_LINES = 50;

interface OverdueRow {
  ownerId: string;
  email: string;
  firstName: string | null;
  timezone: string;
  mailOn: boolean;
  id: string;
  title: string;
  space: 'knowledge' | 'documents';
  due: Date | string;
}

/** Live items past their review date whose owner is an active account (a range of documents_review_due_idx). */
function overdueByOwner(db: Db, now: Date): Promise<OverdueRow[]> {
  return queryRows<OverdueRow>(
    db,
    sql`select u.id as "ownerId", u.email, u.first_name as "firstName",
               coalesce(p.timezone, ${DEFAULT_TIMEZONE}) as timezone,
               coalesce(p.email_notifications, true) as "mailOn",
               d.id, d.title, d.space, d.review_due_at as due
        from documents d
        join users u on u.id = d.owner_id
        left join user_preferences p on p.user_id = u.id
        where d.deleted_at is null and d.review_due_at is not null and d.review_due_at <= ${now.toISOString()}::timestamptz
          and u.account_status = 'active'
        order by u.id, d.review_due_at`,
  );
}

/** Monday 00:00 UTC of the ISO week of a moment. */
export function weekStart(at: Date): Date {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  d.setUTCDate(d.getUTCDate() + 1 - (d.getUTCDay() || 7));
  return d;
}

/** "2026-W48": the ISO week of a moment (UTC), so every run in one week names the same digest. */
export function isoWeek(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

const groupByOwner = (rows: OverdueRow[]) => {
  const owners = new Map<string, OverdueRow[]>();
  for (const r of rows) owners.set(r.ownerId, [...(owners.get(r.ownerId) ?? []), r]);
  return [...owners.values()];
};

/**
 * One owner's digest, in one transaction: the e-mail (when their Email notifications are on; the outbox's dedupe key
 * names the owner and the week, so a rerun or a second worker queues nothing more) and one in-app notification
 * `review_due` (once a week too; marked e-mailed, as the digest is its e-mail). True when a message was queued.
 */
async function digestForOwner(db: Db, rows: OverdueRow[], appUrl: string, now: Date): Promise<boolean> {
  const owner = rows[0];
  // The overdue list their items are on: the documents list when every one of them is a document.
  const listPath = `${rows.every((r) => r.space === 'documents') ? '/documents' : '/knowledge-base'}?review=overdue`;
  const listUrl = `${appUrl}${listPath}`;
  return db.transaction(async (tx) => {
    const [{ told }] = await queryRows<{ told: boolean }>(
      tx,
      sql`select exists (select 1 from notifications where user_id = ${owner.ownerId} and kind = 'review_due'
            and created_at >= ${weekStart(now).toISOString()}::timestamptz) as told`,
    );
    if (!told) {
      const n = rows.length;
      await notifyUsers(tx, {
        userIds: [owner.ownerId],
        kind: 'review_due',
        actorId: null,
        documentId: n === 1 ? owner.id : null,
        text: n === 1 ? `"${owner.title}" is due for review` : `${n} items you own are due for review`,
        link: n === 1 ? itemHref(owner.space, owner.id, owner.title) : listPath,
      });
      await tx.execute(sql`update notifications set emailed_at = now()
          where user_id = ${owner.ownerId} and kind = 'review_due' and emailed_at is null`);
    }
    if (!owner.mailOn) return false;
    const mail = reviewDigestMail({
      firstName: owner.firstName,
      items: rows.slice(0, MAX_LINES).map((r) => ({
        title: r.title,
        due: formatDate(r.due, owner.timezone),
        url: `${appUrl}${itemHref(r.space, r.id, r.title)}`,
      })),
      listUrl,
      settingsUrl: `${appUrl}/settings`,
    });
    await enqueueMail(tx, { dedupeKey: `review-digest:${owner.ownerId}:${isoWeek(now)}`, to: owner.email, ...mail });
    return true;
  });
}

/**
 * The weekly review digest: each active owner of overdue items gets one e-mail listing them (if their Email
 * notifications are on) and one in-app notification. Idempotent within a week.
 */
export async function sendReviewDigests(db: Db, opts: { appUrl: string; now?: Date }) {
  const now = opts.now ?? new Date();
  const owners = groupByOwner(await overdueByOwner(db, now));
  let mailed = 0;
  for (const rows of owners) if (await digestForOwner(db, rows, opts.appUrl, now)) mailed += 1;
  return { owners: owners.length, mailed, items: owners.reduce((n, rows) => n + rows.length, 0) };
}
