import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { users } from '../../src/db/schema';
import { unreadCount } from '../../src/notifications/service';
import { notificationVisibleTo } from '../../src/knowledge/service';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * The bell's badge is asked on every page: a user's unread count must read the partial index
 * notifications_unread_idx, not the whole table, however many notifications other users have.
 */
let t: TestContext;
let reader: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  reader = await createSignedInUser(t.db, { role: 'viewer' });
  // 200 other users with 100 notifications each (half of them read), and 30 unread for the reader.
  await t.db.execute(sql`insert into ${users} (email, first_name, account_status, role)
    select 'bulk-' || g || '@example.com', 'Bulk', 'active', 'viewer' from generate_series(1, 200) g`);
  await t.db.execute(sql`insert into notifications (user_id, kind, text, link, read_at)
    select u.id, 'item_changed', 'bulk', '/notifications', case when g % 2 = 0 then now() end
    from users u cross join generate_series(1, 100) g where u.email like 'bulk-%'`);
  // 5,000 documents; the reader's 30 unread notifications are about 30 of them.
  await t.db.execute(sql`insert into documents (title, content, space)
    select 'Doc ' || g, 'x', 'knowledge' from generate_series(1, 5000) g`);
  await t.db.execute(sql`insert into notifications (user_id, kind, text, link, document_id)
    select ${reader.id}, 'item_changed', 'mine', '/notifications', d.id
    from (select id from documents order by title limit 30) d`);
  await t.db.execute(sql`analyze documents`);
  await t.db.execute(sql`analyze notifications`);
});
afterAll(() => t.close());

describe('the unread count', () => {
  it('reads notifications_unread_idx and each item by its key, among 20,000 notifications and 5,000 items', async () => {
    const user = { id: reader.id, role: 'viewer' };
    expect(await unreadCount(t.db, reader.id, notificationVisibleTo(user))).toBe(30);
    const started = performance.now();
    for (let i = 0; i < 20; i++) await unreadCount(t.db, reader.id, notificationVisibleTo(user));
    const perCall = (performance.now() - started) / 20;
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      t.db,
      sql`explain select count(*) from (select 1 from notifications
          where user_id = ${reader.id} and read_at is null and ${notificationVisibleTo(user)} limit 100) unread`,
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('notifications_unread_idx');
    expect(text).not.toMatch(/Seq Scan on (notifications|documents)|hashed SubPlan/);
    expect(perCall).toBeLessThan(50);
  });
});
