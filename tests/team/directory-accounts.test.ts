import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamMembers } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { formatDate } from '../../src/ui/shared';
import {
  activate,
  clearThrottle,
  lastMailTo,
  login,
  PASSWORD,
  register,
  registerAndVerify,
  tokenFrom,
} from '../auth/helpers';

/** The directory follows the accounts: an invitation's entry is "invited" until the invitee registers; sign-ins feed "Last active". */

let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Grace', lastName: 'Hopper' });
});
afterAll(() => t.close());

const invite = (body: Record<string, string>) =>
  t.app.request('/api/team/invite', jsonRequest('POST', body, user.cookie));
const member = async (email: string) => (await t.db.select().from(teamMembers).where(eq(teamMembers.email, email)))[0];
const teamPage = async () => (await t.app.request('/team', { headers: { Cookie: user.cookie } })).text();
const rowOf = (html: string, name: string) =>
  html.match(new RegExp(`<li class="team-row">(?:(?!</li>).)*${name}.*?</li>`))?.[0];

describe('invitations in the directory', () => {
  it('an invitation adds the invitee with status "invited" (not counted as active)', async () => {
    const res = await invite({
      email: 'Nina@Example.com',
      firstName: 'Nina',
      lastName: 'Invitee',
      role: 'DevOps Engineer',
      department: 'Server Services',
    });
    expect(res.status).toBe(200);
    expect(await member('nina@example.com')).toMatchObject({
      name: 'Nina Invitee',
      role: 'DevOps Engineer',
      department: 'Server Services',
      status: 'invited',
      lastActive: null,
    });
    const html = await teamPage();
    const row = rowOf(html, 'Nina Invitee')!;
    expect(row).toContain('status-dot status-dot--grey" role="img" aria-label="Invited"');
    expect(row).toContain('<span class="badge badge--neutral">Invited</span>');
    expect(row).toContain('Never');
    expect(html).toMatch(/Active Now<\/span><span class="stat-card__value">0</);
    // Its edit form keeps the status (Invited is offered while it holds).
    expect(html).toMatch(/<option value="invited" selected="">Invited<\/option>/);
    const list = await (await t.app.request('/api/team-members', jsonRequest('GET', undefined, user.cookie))).json();
    expect(list.find((m: { email: string }) => m.email === 'nina@example.com').status).toBe('invited');
  });

  it('registering alone does not take it up; verifying the address makes the entry active', async () => {
    expect((await register(t, 'nina@example.com')).status).toBe(201);
    expect((await member('nina@example.com')).status).toBe('invited');
    const token = tokenFrom((await lastMailTo(t.db, 'nina@example.com', 'verify:')).text, '/verify-email');
    const verified = await t.app.request(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect((await verified.json()).status).toBe('pending_approval');
    expect((await member('nina@example.com')).status).toBe('active');
    const row = rowOf(await teamPage(), 'Nina Invitee')!;
    expect(row).toContain('aria-label="Active"');
    expect(row).not.toContain('>Invited<');
  });

  it('inviting someone who already has a verified account lists them as active', async () => {
    await registerAndVerify(t, 'old.hand@example.com');
    await invite({ email: 'old.hand@example.com', firstName: 'Old', lastName: 'Hand', role: 'Manager' });
    expect((await member('old.hand@example.com')).status).toBe('active');
  });

  it('a second invitation updates an invited entry but never an existing member', async () => {
    await invite({ email: 'pat@example.com', firstName: 'Pat', lastName: 'Typo', role: 'VIP' });
    await invite({ email: 'pat@example.com', firstName: 'Pat', lastName: 'Right', role: 'Manager' });
    expect(await member('pat@example.com')).toMatchObject({ name: 'Pat Right', role: 'Manager', status: 'invited' });
    await t.db
      .insert(teamMembers)
      .values({ name: 'Kim Kept', email: 'kim@example.com', role: 'VIP', status: 'inactive' });
    await invite({ email: 'kim@example.com', firstName: 'Someone', lastName: 'Else', role: 'Manager' });
    const kim = await member('kim@example.com');
    expect(kim).toMatchObject({ name: 'Kim Kept', role: 'VIP', status: 'inactive' });
    // An entry that is not invited is edited with Active and Inactive only.
    const form = (await teamPage()).match(new RegExp(`<form id="edit-${kim.id}-form".*?</form>`))![0];
    expect(form).toContain('<option value="inactive" selected="">Inactive</option>');
    expect(form).not.toContain('value="invited"');
  });
});

describe('"Last active" from sign-ins', () => {
  it('a password sign-in (API or form) records the time on the member with that address', async () => {
    await registerAndVerify(t, 'lena@example.com');
    await activate(t.db, 'lena@example.com');
    await t.db.insert(teamMembers).values({ name: 'Lena Login', email: 'lena@example.com', role: 'Manager' });
    expect(rowOf(await teamPage(), 'Lena Login')).toContain('Never');

    await clearThrottle(t.db);
    const before = Date.now();
    expect((await login(t, 'lena@example.com', PASSWORD)).status).toBe(200);
    const first = (await member('lena@example.com')).lastActive!;
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(first.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const row = rowOf(await teamPage(), 'Lena Login')!;
    expect(row).toContain(`Last active ${formatDate(first, 'Australia/Sydney')}`);
    expect(row).not.toContain('Never');

    await new Promise((r) => setTimeout(r, 20));
    const res = await t.app.request('/login', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'LENA@example.com', password: PASSWORD }),
    });
    expect(res.status).toBe(303);
    const second = (await member('lena@example.com')).lastActive!;
    expect(second.getTime()).toBeGreaterThan(first.getTime());

    // A refused sign-in (wrong password, or an account awaiting approval) records nothing.
    await clearThrottle(t.db);
    expect((await login(t, 'lena@example.com', 'wrong password')).status).toBe(401);
    await t.db.insert(teamMembers).values({ name: 'Rita Refused', email: 'rita@example.com', role: 'Manager' });
    await registerAndVerify(t, 'rita@example.com');
    expect((await login(t, 'rita@example.com', PASSWORD)).status).toBe(403);
    expect((await member('lena@example.com')).lastActive).toEqual(second);
    expect((await member('rita@example.com')).lastActive).toBeNull();
  });
});
