import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { addServer, alertsOf, statusChange } from './support';

/** Alert rules select servers by tag too (issue 24: environment, team owner, tag). */
let t: TestContext;
let admin: TestUser;
let ada: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  ada = await createSignedInUser(t.db, { role: 'viewer', email: 'ada-tags@example.com' });
});
afterAll(() => t.close());

describe('a rule with a tag', () => {
  it('is stored in lower case and alerts only for servers carrying the tag', async () => {
    const res = await t.app.request(
      '/api/admin/alert-rules',
      jsonRequest(
        'POST',
        { name: 'PCI on-call', tag: ' PCI ', channel: 'email', userIds: [ada.id], repeatMinutes: 30 },
        admin.cookie,
      ),
    );
    expect(res.status).toBe(201);
    const rule = await res.json();
    expect(rule.tag).toBe('pci');

    const tagged = await addServer(t);
    const other = await addServer(t);
    await t.db
      .update(servers)
      .set({ tags: ['db', 'pci'] })
      .where(eq(servers.id, tagged.id));
    await t.db
      .update(servers)
      .set({ tags: ['db'] })
      .where(eq(servers.id, other.id));
    await statusChange(t, tagged.id, 'online', 'offline', new Date());
    await statusChange(t, other.id, 'online', 'offline', new Date());

    expect((await alertsOf(t, tagged.id)).map((a) => a.ruleId)).toEqual([rule.id]);
    expect(await alertsOf(t, other.id)).toEqual([]);
  });

  it('the rules page takes a tag and lists it', async () => {
    const form = new URLSearchParams({
      name: 'Edge',
      tag: 'edge',
      channel: 'email',
      userIds: ada.id,
      repeatMinutes: '60',
    });
    const res = await t.app.request('/admin/alert-rules', {
      method: 'POST',
      headers: {
        Cookie: admin.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'http://localhost:3000',
      },
      body: form.toString(),
    });
    expect(res.status).toBe(303);
    const page = await (await t.app.request('/admin/alert-rules', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('every environment, every team, tag edge');
    expect(page).toContain('name="tag"');
  });
});
