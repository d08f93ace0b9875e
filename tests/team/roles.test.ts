import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamMembers } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let editor: TestUser;
let viewer: TestUser;
let auditor: TestUser;
let memberId: string;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
  const [m] = await t.db
    .insert(teamMembers)
    .values({ name: 'Grace Hopper', email: 'grace@example.com', role: 'Engineer' })
    .returning();
  memberId = m.id;
});
afterAll(() => t.close());

const html = async (user: TestUser) => (await t.app.request('/team', { headers: { Cookie: user.cookie } })).text();

describe('the team page for those who only read', () => {
  it('shows the directory without Add, Invite, Edit or Delete (and without their dialogs)', async () => {
    const writer = await html(editor);
    for (const text of ['Add Team Member', 'Invite Member', 'Edit Grace Hopper', 'Delete Grace Hopper'])
      expect(writer, text).toContain(text);
    for (const reader of [viewer, auditor]) {
      const page = await html(reader);
      expect(page).toContain('Grace Hopper');
      for (const text of [
        'Add Team Member',
        'Invite Member',
        'Edit Grace Hopper',
        'Delete Grace Hopper',
        'method="post"',
      ])
        expect(page, text).not.toContain(text);
    }
  });

  it('refuses their writes (403) through the API and the forms', async () => {
    const member = { name: 'Ada', email: 'ada@example.com', role: 'Engineer' };
    for (const reader of [viewer, auditor]) {
      const calls: [string, string, unknown][] = [
        ['POST', '/api/team-members', member],
        ['PUT', `/api/team-members/${memberId}`, member],
        ['DELETE', `/api/team-members/${memberId}`, undefined],
        ['POST', '/api/team/invite', { email: 'x@example.com', firstName: 'X', lastName: 'Y', role: 'Engineer' }],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.app.request(path, jsonRequest(method, body, reader.cookie));
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(typeof (await res.json()).message).toBe('string');
      }
      for (const path of [
        '/team/members',
        `/team/members/${memberId}`,
        `/team/members/${memberId}/delete`,
        '/team/invite',
      ]) {
        const res = await t.app.request(path, {
          method: 'POST',
          headers: { Cookie: reader.cookie, Origin: TEST_ORIGIN },
          body: new URLSearchParams(member),
        });
        expect(res.status, path).toBe(403);
      }
    }
    expect(await t.db.select().from(teamMembers)).toHaveLength(1);
  });
});
