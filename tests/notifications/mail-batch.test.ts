import { eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationMailJob } from '../../jobs/notification-mail';
import { documents, mailOutbox, notifications, userPreferences, users } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { createItem, updateItem } from '../../src/knowledge/service';
import { mailNotificationBatches, QUIET_WINDOW_MS } from '../../src/notifications/mail-batch';
import { watchItem } from '../../src/knowledge/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { secondWorkerDatabase } from '../jobs/support';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** The batched e-mail of notifications (jobs/notification-mail.ts): one message per user per quiet burst. */
let t: TestContext;
let author: TestUser;
let watcher: TestUser;

const later = () => new Date(Date.now() + QUIET_WINDOW_MS + 1000);
const mailsTo = async (who: TestUser) => {
  const [u] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, who.id));
  return t.db.select().from(mailOutbox).where(eq(mailOutbox.to, u.email));
};
const pending = async (who: TestUser) =>
  t.db
    .select()
    .from(notifications)
    .where(sql`${notifications.userId} = ${who.id} and ${isNull(notifications.emailedAt)}`);

/** An item `watcher` watches, saved `times` times by the author: a burst of notifications. */
async function burst(times: number, title = 'Patch servers') {
  const item = await createItem(t.db, 'knowledge', { title, content: 'v1' }, author.id);
  await watchItem(t.db, item.id, watcher.id);
  for (let i = 2; i <= times + 1; i++)
    await updateItem(t.db, 'knowledge', item.id, { title, content: `v${i}`, version: i - 1 }, author.id);
  return item;
}

beforeAll(async () => {
  t = await createTestApp();
  author = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Author' });
});
afterAll(() => t.close());
beforeEach(async () => {
  watcher = await createSignedInUser(t.db, { firstName: 'Wanda' });
});

describe('notification e-mail batches', () => {
  it('a burst of saves sends one message listing each change with an absolute link, once quiet', async () => {
    const item = await burst(3);
    expect(await pending(watcher)).toHaveLength(3);
    // Still inside the quiet window: nothing yet.
    expect(await mailNotificationBatches(t.db, t.config.appUrl)).toEqual({ messages: 0, users: 0 });
    expect(await mailsTo(watcher)).toHaveLength(0);

    const r = await mailNotificationBatches(t.db, t.config.appUrl, later());
    expect(r.messages).toBe(1);
    const [mail] = await mailsTo(watcher);
    expect(mail.subject).toBe('Ops Hub: 3 new notifications');
    expect(mail.text).toContain('Hello Wanda,');
    expect(mail.text).toContain('Ada Author updated "Patch servers" (version 4)');
    expect(mail.text).toContain(`${TEST_ORIGIN}/knowledge-base/${item.id}`);
    expect(mail.html).toContain(`href="${TEST_ORIGIN}/knowledge-base/${item.id}"`);
    expect(mail.text).toContain(`${TEST_ORIGIN}/settings`);
    expect(await pending(watcher)).toHaveLength(0);
    // A second run finds nothing more to send.
    expect((await mailNotificationBatches(t.db, t.config.appUrl, later())).messages).toBe(0);
    expect(await mailsTo(watcher)).toHaveLength(1);
  });

  it('waits while the burst goes on: a save inside the quiet window holds back the whole batch', async () => {
    await burst(1);
    const now = new Date(Date.now() + QUIET_WINDOW_MS / 2);
    await t.db
      .update(notifications)
      .set({ createdAt: new Date(Date.now() - QUIET_WINDOW_MS) })
      .where(eq(notifications.userId, watcher.id));
    await burst(1, 'Second item');
    expect((await mailNotificationBatches(t.db, t.config.appUrl, now)).messages).toBe(0);
    expect(await pending(watcher)).toHaveLength(2);
    expect((await mailNotificationBatches(t.db, t.config.appUrl, later())).messages).toBe(1);
    expect((await mailsTo(watcher))[0].text).toContain('Second item');
  });

  it('Email notifications off, or a deactivated account: marked e-mailed, no message', async () => {
    await t.db.insert(userPreferences).values({ userId: watcher.id, emailNotifications: false });
    await burst(2);
    const off = await createSignedInUser(t.db);
    await t.db.update(users).set({ accountStatus: 'deactivated' }).where(eq(users.id, off.id));
    const item = await createItem(t.db, 'knowledge', { title: 'Other', content: 'x' }, author.id);
    await watchItem(t.db, item.id, off.id);
    await t.db.insert(notifications).values({ userId: off.id, kind: 'item_changed', text: 'x', link: '/x' });
    const r = await mailNotificationBatches(t.db, t.config.appUrl, later());
    expect(r.messages).toBe(0);
    expect(await mailsTo(watcher)).toHaveLength(0);
    expect(await mailsTo(off)).toHaveLength(0);
    expect(await pending(watcher)).toHaveLength(0);
    expect(await pending(off)).toHaveLength(0);
  });

  it('leaves out notifications about an item the user can no longer read', async () => {
    const secret = await burst(1, 'Soon restricted');
    await burst(1, 'Still open');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, secret.id));
    expect((await mailNotificationBatches(t.db, t.config.appUrl, later())).messages).toBe(1);
    const [mail] = await mailsTo(watcher);
    expect(mail.text).toContain('Still open');
    expect(mail.text).not.toContain('Soon restricted');
    expect(mail.subject).toBe('Ops Hub: Ada Author updated "Still open" (version 2)');
    expect(await pending(watcher)).toHaveLength(0);
  });

  it('two runs at once send one message', async () => {
    await burst(2);
    const results = await Promise.all([
      mailNotificationBatches(t.db, t.config.appUrl, later()),
      mailNotificationBatches(t.db, t.config.appUrl, later()),
    ]);
    expect(results.reduce((n, r) => n + r.messages, 0)).toBe(1);
    expect(await mailsTo(watcher)).toHaveLength(1);
  });

  it('two workers (separate connections) at once send one message (PostgreSQL)', async () => {
    if (!t.database.pool) return;
    const second = secondWorkerDatabase(t.database);
    try {
      await burst(3);
      const results = await Promise.all([
        mailNotificationBatches(t.db, t.config.appUrl, later()),
        mailNotificationBatches(second.db, t.config.appUrl, later()),
      ]);
      expect(results.reduce((n, r) => n + r.messages, 0)).toBe(1);
      expect(await mailsTo(watcher)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('runs as the every-minute job', async () => {
    await burst(1);
    await t.db
      .update(notifications)
      .set({ createdAt: new Date(Date.now() - QUIET_WINDOW_MS - 1000) })
      .where(eq(notifications.userId, watcher.id));
    const summary = await notificationMailJob.run({
      db: t.db,
      database: t.database,
      config: t.config,
      logger: createLogger('silent'),
      signal: new AbortController().signal,
      now: new Date(),
    });
    expect(summary).toMatch(/^Queued [1-9]\d* notification e-mails/);
    expect(notificationMailJob.schedule(t.config)).toBe('* * * * *');
    expect(notificationMailJob.schedule({ ...t.config, schedules: { ...t.config.schedules, mail: 'off' } })).toBe(
      'off',
    );
    const [mail] = await mailsTo(watcher);
    expect(mail.subject).toBe('Ops Hub: Ada Author updated "Patch servers" (version 2)');
    const ids = (await t.db.select().from(notifications).where(eq(notifications.userId, watcher.id))).map((n) => n.id);
    const rows = await t.db.select().from(notifications).where(inArray(notifications.id, ids));
    expect(rows.every((n) => n.emailedAt)).toBe(true);
  });
});
