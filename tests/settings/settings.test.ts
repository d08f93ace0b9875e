import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../../src/auth/password';
import { createSession } from '../../src/auth/sessions';
import { mailOutbox, sessions, userPreferences, users } from '../../src/db/schema';
import { sessionCookieName } from '../../src/http/session';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { lastMailTo, tokenFrom } from '../auth/helpers';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
const get = (path: string, cookie = user.cookie) => t.app.request(path, { headers: { Cookie: cookie } });
const post = (path: string, form: Record<string, string>, cookie = user.cookie) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
/** Security alerts queued for the user. */
const alerts = () =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, user.email), like(mailOutbox.dedupeKey, 'security:%')));
const prefs = async (id = user.id) =>
  (await t.db.select().from(userPreferences).where(eq(userPreferences.userId, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
  const created = new Date(Date.now() - 200 * 86400000);
  await t.db
    .update(users)
    .set({
      password: await hashPassword('old-password-1'),
      createdAt: created,
      passwordUpdatedAt: new Date(Date.now() - 95 * 86400000),
    })
    .where(eq(users.id, user.id));
});
afterAll(() => t.close());

describe('/settings', () => {
  it('sends signed-out visitors to sign in', async () => {
    expect((await t.app.request('/settings')).status).toBe(302);
  });

  it('shows every section with the spec defaults, the read-only e-mail and the real password age', async () => {
    const html = await (await get('/settings')).text();
    for (const s of [
      'Profile Information',
      'Notifications',
      'Appearance &amp; Preferences',
      'Security',
      'Danger Zone',
      'Scheduled health reports',
    ])
      expect(html, s).toContain(s);
    expect(html).toMatch(/<option selected="">Australia\/Sydney<\/option>/);
    expect(html).toMatch(/<option selected="">IT Operations<\/option>/);
    expect(html).toMatch(/id="settings-email"[^>]*readOnly[^>]*disabled/i);
    expect(html).toMatch(/name="emailNotifications" checked=""/);
    expect(html).not.toMatch(/name="pushNotifications" checked=""/);
    expect(html).toMatch(/name="securityAlerts" checked=""/);
    expect(html).toMatch(/name="autoSave" checked=""/);
    expect(html).toMatch(/<option value="system" selected="">System<\/option>/);
    expect(html).toContain('Password last updated <strong>3 months ago</strong>');
  });

  it('saves the profile (303, "Profile Updated") and the new timezone is used from then on', async () => {
    const res = await post('/settings/profile', {
      firstName: 'Augusta',
      lastName: 'King',
      department: 'Development',
      timezone: 'Australia/Perth',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings?updated=profile');
    const html = await (await get('/settings?updated=profile')).text();
    expect(html).toContain('Profile Updated');
    expect(html).toContain('value="Augusta"');
    expect(html).toMatch(/<option selected="">Australia\/Perth<\/option>/);
    expect(html).toContain('(Australia/Perth)');
    const [u] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect([u.firstName, u.lastName]).toEqual(['Augusta', 'King']);
    expect(await prefs()).toMatchObject({ department: 'Development', timezone: 'Australia/Perth' });
  });

  it('re-renders the profile with 422 and messages for bad input', async () => {
    const res = await post('/settings/profile', {
      firstName: ' ',
      lastName: 'King',
      department: 'Nowhere',
      timezone: 'Mars/Olympus',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('First name is required');
    expect(html).toContain('Choose a department from the list.');
    expect(html).toContain('Choose a timezone from the list.');
  });

  it('saves notification switches, including scheduled health reports; Push is not a form field (it needs a real subscription)', async () => {
    const res = await post('/settings/notifications', { pushNotifications: 'on', healthReports: 'on' });
    expect(res.headers.get('location')).toBe('/settings?updated=preferences');
    expect(await prefs()).toMatchObject({
      emailNotifications: false,
      pushNotifications: false,
      securityAlerts: false,
      healthReports: true,
      timezone: 'Australia/Perth',
    });
    expect(await (await get('/settings?updated=preferences')).text()).toContain('Preferences Updated');
  });

  it('saves the theme and renders it on the server from the next page on', async () => {
    await post('/settings/appearance', { theme: 'dark', compactView: 'on' });
    expect(await prefs()).toMatchObject({ theme: 'dark', autoSave: false, compactView: true });
    expect(await (await get('/team')).text()).toMatch(/<html lang="en" data-theme="dark"[ >]/);
    expect((await post('/settings/appearance', { theme: 'pink' })).status).toBe(422);
  });

  it('changes the password only with the right current one, and signs out other sessions', async () => {
    const other = await createSession(t.db, user.id);
    const wrong = await post('/settings/password', {
      currentPassword: 'nope',
      newPassword: 'new-password-2',
      confirmPassword: 'new-password-2',
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('Current password is incorrect.');
    const missing = await post('/settings/password', {
      newPassword: 'new-password-2',
      confirmPassword: 'new-password-2',
    });
    expect(await missing.text()).toContain('Current password is required.');
    const short = await post('/settings/password', {
      currentPassword: 'old-password-1',
      newPassword: 'short',
      confirmPassword: 'short',
    });
    expect(await short.text()).toContain('Password must be at least 8 characters');
    const mismatch = await post('/settings/password', {
      currentPassword: 'old-password-1',
      newPassword: 'new-password-2',
      confirmPassword: 'new-password-3',
    });
    expect(await mismatch.text()).toContain('Passwords don&#x27;t match');
    const ok = await post('/settings/password', {
      currentPassword: 'old-password-1',
      newPassword: 'new-password-2',
      confirmPassword: 'new-password-2',
    });
    expect(ok.headers.get('location')).toBe('/settings?updated=password');
    const [u] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(u.password!, 'new-password-2')).toBe(true);
    expect(Date.now() - u.passwordUpdatedAt!.getTime()).toBeLessThan(60_000);
    expect(await t.db.select().from(sessions).where(eq(sessions.sid, other.sid))).toEqual([]);
    const html = await (await get('/settings')).text();
    expect(html).toContain('Password last updated <strong>just now</strong>');
    expect(await alerts()).toEqual([]); // Security alerts were switched off above
  });

  it('signs out other sessions on request and keeps this one', async () => {
    const other = await createSession(t.db, user.id);
    expect(await (await get('/settings')).text()).toContain('You are signed in on 1 other session.');
    const res = await post('/settings/sessions', {});
    expect(res.headers.get('location')).toBe('/settings?updated=sessions');
    expect(await t.db.select().from(sessions).where(eq(sessions.sid, other.sid))).toEqual([]);
    expect((await get('/settings')).status).toBe(200);
  });
});

describe('password change and reset links', () => {
  it('voids a reset link that was sent before the password was changed in Settings', async () => {
    const other = await createSignedInUser(t.db, { email: 'resetter@example.com' });
    await t.db
      .update(users)
      .set({ password: await hashPassword('first-password-1') })
      .where(eq(users.id, other.id));
    expect(
      (await t.app.request('/api/auth/forgot-password', jsonRequest('POST', { email: 'resetter@example.com' }))).status,
    ).toBe(200);
    const token = tokenFrom((await lastMailTo(t.db, 'resetter@example.com', 'reset:')).text, '/reset-password');
    const changed = await post(
      '/settings/password',
      { currentPassword: 'first-password-1', newPassword: 'second-password-2', confirmPassword: 'second-password-2' },
      other.cookie,
    );
    expect(changed.status).toBe(303);
    const reset = await t.app.request(
      '/api/auth/reset-password',
      jsonRequest('POST', { token, password: 'stolen-password-3', confirmPassword: 'stolen-password-3' }),
    );
    expect(reset.status).toBe(400);
    expect((await reset.json()).message).toBe('This password reset link is invalid or has expired.');
    const [u] = await t.db.select().from(users).where(eq(users.id, other.id));
    expect(await verifyPassword(u.password!, 'second-password-2')).toBe(true);
  });
});

describe('Security alerts', () => {
  const from = { incoming: { socket: { remoteAddress: '203.0.113.9' } } };
  const postFrom = (path: string, form: Record<string, string>) =>
    t.app.request(
      path,
      {
        method: 'POST',
        headers: {
          Cookie: user.cookie,
          Origin: TEST_ORIGIN,
          'Content-Type': 'application/x-www-form-urlencoded',
          'User-Agent': 'Firefox/140 (test)',
        },
        body: new URLSearchParams(form).toString(),
      },
      from,
    );

  it("e-mails a password change: what, when in the user's timezone, from which address and browser, and how to reset", async () => {
    await post('/settings/notifications', { emailNotifications: 'on', securityAlerts: 'on' });
    const res = await postFrom('/settings/password', {
      currentPassword: 'new-password-2',
      newPassword: 'new-password-3',
      confirmPassword: 'new-password-3',
    });
    expect(res.status).toBe(303);
    const [mail] = await alerts();
    expect(mail.subject).toBe('Your Ops Hub password was changed');
    expect(mail.text).toContain(
      'The password of your account was changed in Settings; your other sessions were signed out.',
    );
    expect(mail.text).toMatch(/When: \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm) \(Australia\/Perth\)\./);
    expect(mail.text).toContain('From: IP address 203.0.113.9, browser "Firefox/140 (test)".');
    expect(mail.text).toContain(`Reset your password: ${t.config.appUrl}/forgot-password`);
    expect(mail.html).toContain(`href="${t.config.appUrl}/forgot-password"`);
  });

  it('e-mails when the other sessions are signed out', async () => {
    await createSession(t.db, user.id);
    await postFrom('/settings/sessions', {});
    const mail = (await alerts()).find((m) => m.dedupeKey.startsWith('security:sessions_revoked:'))!;
    expect(mail.subject).toBe('Your other Ops Hub sessions were signed out');
    expect(mail.text).toContain('All sessions of your account except the one that asked were signed out.');
    expect(mail.text).toContain('IP address 203.0.113.9');
  });

  it('sends none with Security alerts off', async () => {
    const before = (await alerts()).length;
    await post('/settings/notifications', { emailNotifications: 'on' });
    await postFrom('/settings/sessions', {});
    await postFrom('/settings/password', {
      currentPassword: 'new-password-3',
      newPassword: 'new-password-4',
      confirmPassword: 'new-password-4',
    });
    expect((await alerts()).length).toBe(before);
  });
});

describe('Danger Zone', () => {
  it('needs the e-mail typed exactly', async () => {
    const res = await post('/settings/delete-account', { confirmEmail: 'someone@else.com' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Type your email address exactly to confirm.');
  });

  it('refuses to delete the last admin, then deletes an account once another admin exists', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const last = await post('/settings/delete-account', { confirmEmail: admin.email }, admin.cookie);
    expect(last.status).toBe(422);
    expect(await last.text()).toContain('You are the last administrator.');
    await createSignedInUser(t.db, { role: 'admin' });
    const ok = await post('/settings/delete-account', { confirmEmail: admin.email.toUpperCase() }, admin.cookie);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/');
    expect(ok.headers.get('set-cookie')).toContain(`${sessionCookieName(false)}=;`);
    expect(await t.db.select().from(users).where(eq(users.id, admin.id))).toEqual([]);
    expect((await get('/settings', admin.cookie)).status).toBe(302);
  });

  it('lets a user delete their own account', async () => {
    const res = await post('/settings/delete-account', { confirmEmail: user.email });
    expect(res.status).toBe(303);
    expect(await t.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
  });
});
