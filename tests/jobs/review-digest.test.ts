import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { documents, mailOutbox, notifications, userPreferences, users } from '../../src/db/schema';
import { isoWeek, sendReviewDigests, weekStart } from '../../src/reviews/digest';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { jobsConfig, secondWorkerDatabase, testScheduler } from './support';

/** The weekly review digest (issue 22): one e-mail per owner per week through the outbox, and one in-app notification. */

let database: Database;
let ada: TestUser;
let bob: TestUser;
const titles: Record<string, string> = {};

/** A live item owned by `ownerId`, due `dueDays` from now (negative: overdue). */
async function item(
  ownerId: string,
  title: string,
  dueDays: number | null,
  extra: Partial<typeof documents.$inferInsert> = {},
) {
  const [row] = await database.db
    .insert(documents)
    .values({
      title,
      content: 'x',
      space: 'knowledge',
      ownerId,
      authorId: ownerId,
      reviewIntervalDays: dueDays === null ? null : 30,
      reviewDueAt: dueDays === null ? null : sql`now() + make_interval(days => ${dueDays}::int)`,
      ...extra,
    })
    .returning({ id: documents.id });
  titles[row.id] = title;
  return row.id;
}

const digests = () => database.db.select().from(mailOutbox).where(like(mailOutbox.dedupeKey, 'review-digest:%'));
const dueNotes = (userId: string) =>
  database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'review_due')));

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  ada = await createSignedInUser(db, { email: 'ada@example.com', firstName: 'Ada' });
  await db.insert(userPreferences).values({ userId: ada.id, timezone: 'UTC' });
  bob = await createSignedInUser(db, { email: 'bob@example.com', firstName: 'Bob' });
  await db.insert(userPreferences).values({ userId: bob.id, emailNotifications: false });
  const [gone] = await db
    .insert(users)
    .values({ email: 'gone@example.com', accountStatus: 'deactivated' })
    .returning({ id: users.id });

  await item(ada.id, 'Rotate <backup> keys', -3);
  await item(ada.id, 'Restricted runbook', -40, { visibility: 'restricted', space: 'documents' });
  await item(ada.id, 'Due next week', 5);
  await item(ada.id, 'No review date', null);
  await item(ada.id, 'Deleted and overdue', -3, { deletedAt: new Date() });
  await item(bob.id, 'Bob overdue', -1);
  await item(gone.id, 'Owner deactivated', -10);
});
afterAll(() => database.close());

describe('review-digest job', () => {
  it('e-mails each active owner with Email notifications on once a week, listing their overdue items with absolute links', async () => {
    const scheduler = testScheduler(database);
    expect(await scheduler.runNow('review-digest')).toMatchObject({ status: 'ok' });
    expect(await scheduler.runNow('review-digest')).toMatchObject({ status: 'ok' });

    const queued = await digests();
    expect(queued.map((m) => m.to)).toEqual(['ada@example.com']);
    const m = queued[0];
    expect(m.dedupeKey).toBe(`review-digest:${ada.id}:${isoWeek(new Date())}`);
    expect(m.subject).toBe('Ops Hub: 2 items due for review');
    expect(m.text).toContain('Hello Ada,');
    expect(m.text).toContain('Rotate <backup> keys (due ');
    expect(m.text).toContain('Restricted runbook (due ');
    expect(m.text).not.toContain('Due next week');
    expect(m.text).not.toContain('Deleted and overdue');
    expect(m.text).not.toContain('No review date');
    expect(m.text).toMatch(/http:\/\/localhost:3000\/knowledge-base\/[0-9a-f-]{36}\/rotate-backup-keys/);
    expect(m.text).toMatch(/http:\/\/localhost:3000\/documents\/[0-9a-f-]{36}\/restricted-runbook/);
    expect(m.text).toContain('See every overdue item: http://localhost:3000/knowledge-base?review=overdue');
    expect(m.html).toContain('Rotate &lt;backup&gt; keys');
    expect(m.html).not.toContain('<backup>');
    // The oldest due first.
    expect(m.text.indexOf('Restricted runbook')).toBeLessThan(m.text.indexOf('Rotate <backup> keys'));
  });

  it('sends no mail to an owner with Email notifications off, but tells them in the app, once a week', async () => {
    expect((await digests()).some((m) => m.to === 'bob@example.com')).toBe(false);
    const bobs = await dueNotes(bob.id);
    expect(bobs).toHaveLength(1);
    expect(bobs[0].text).toBe('"Bob overdue" is due for review');
    expect(bobs[0].link).toMatch(/^\/knowledge-base\/[0-9a-f-]{36}\/bob-overdue$/);
    const adas = await dueNotes(ada.id);
    expect(adas).toHaveLength(1);
    expect(adas[0]).toMatchObject({
      text: '2 items you own are due for review',
      link: '/knowledge-base?review=overdue',
    });
    // The digest is their e-mail: the notifications' batched e-mail leaves them out.
    expect([...adas, ...bobs].every((n) => n.emailedAt !== null)).toBe(true);
    const deactivated = await database.db.select().from(notifications).where(eq(notifications.kind, 'review_due'));
    expect(deactivated).toHaveLength(2);
  });

  it('sends the next digest in the next week', async () => {
    const nextWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const r = await sendReviewDigests(database.db, { appUrl: 'http://localhost:3000', now: nextWeek });
    expect(r).toMatchObject({ owners: 2, mailed: 1 });
    const queued = await digests();
    expect(queued).toHaveLength(2);
    // "Due next week" is overdue by then.
    expect(queued.find((m) => m.dedupeKey.endsWith(isoWeek(nextWeek)))?.text).toContain('Due next week');
    expect(await dueNotes(ada.id)).toHaveLength(2);
  });

  it('links an owner whose overdue items are all documents to the documents list', async () => {
    const carl = await createSignedInUser(database.db, { email: 'carl@example.com', firstName: 'Carl' });
    await item(carl.id, 'Carl runbook one', -3, { space: 'documents' });
    await item(carl.id, 'Carl runbook two', -1, { space: 'documents' });
    const later = new Date(Date.now() + 14 * 24 * 3600 * 1000);
    await sendReviewDigests(database.db, { appUrl: 'http://localhost:3000', now: later });
    const [note] = await dueNotes(carl.id);
    expect(note).toMatchObject({ text: '2 items you own are due for review', link: '/documents?review=overdue' });
    const mail = (await digests()).find((m) => m.to === 'carl@example.com');
    expect(mail?.text).toContain('See every overdue item: http://localhost:3000/documents?review=overdue');
  });

  it.runIf(usingPostgres())('sends one message when two workers run it at once', async () => {
    await database.db.delete(mailOutbox);
    const other = secondWorkerDatabase(database);
    try {
      const config = jobsConfig();
      const results = await Promise.all([
        testScheduler(database, { config }).runNow('review-digest'),
        testScheduler(other, { config }).runNow('review-digest'),
      ]);
      expect(results.map((r) => r.status).sort()).toContain('ok');
      expect((await digests()).filter((m) => m.to === 'ada@example.com')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('names the ISO week and its Monday', () => {
    expect(weekStart(new Date('2026-11-29T23:59:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(weekStart(new Date('2026-11-30T07:00:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(isoWeek(new Date('2026-11-30T07:00:00Z'))).toBe('2026-W49');
    expect(isoWeek(new Date('2026-11-29T23:59:00Z'))).toBe('2026-W48');
    expect(isoWeek(new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53');
  });
});
