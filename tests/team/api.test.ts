import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, mailOutbox, teamMembers } from '../../src/db/schema';
import { deliverDueMail } from '../../src/mail/deliver';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { startMailbox, type Mailbox } from '../helpers/mailbox';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let mailbox: Mailbox;
let received: Mailbox['messages'];

const call = (method: string, path: string, body?: unknown, cookie: string | undefined = user.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));
const ada = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  role: 'System Administrator',
  department: 'IT Operations',
};

beforeAll(async () => {
  mailbox = await startMailbox();
  received = mailbox.messages;
  t = await createTestApp({ SMTP_URL: mailbox.url, MAIL_FROM: 'Ops Hub <ops@example.com>' });
  user = await createSignedInUser(t.db, { firstName: 'Grace', lastName: 'Hopper' });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

describe('team members API', () => {
  it('needs a signed-in user for every call', async () => {
    expect((await call('GET', '/api/team-members', undefined, '')).status).toBe(401);
    expect((await call('POST', '/api/team-members', ada, '')).status).toBe(401);
    expect((await call('POST', '/api/team/invite', {}, '')).status).toBe(401);
  });

  it('creates a member with status active by default, e-mail lower-cased', async () => {
    const res = await call('POST', '/api/team-members', ada);
    expect(res.status).toBe(201);
    const member = await res.json();
    expect(member).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'System Administrator',
      department: 'IT Operations',
      status: 'active',
      lastActive: null,
    });
    const list = await (await call('GET', '/api/team-members')).json();
    expect(list).toEqual([member]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, member.id));
    expect(audit).toMatchObject({ action: 'team_member.create', actorId: user.id });
  });

  it('answers the spec messages for missing name, bad e-mail and missing role', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ada, email: 'x@example.com', name: '' }, 'Name is required'],
      [{ email: 'x@example.com', role: 'VIP' }, 'Name is required'],
      [{ ...ada, email: 'not-an-email' }, 'Valid email is required'],
      [{ ...ada, email: undefined }, 'Valid email is required'],
      [{ ...ada, email: 'y@example.com', role: '  ' }, 'Role is required'],
      [{ ...ada, email: 'z@example.com', status: 'away' }, 'Status must be active, inactive or invited.'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/team-members', body);
      expect(res.status, message).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });

  it('refuses a second member with the same e-mail (409), whatever its case', async () => {
    const res = await call('POST', '/api/team-members', { ...ada, name: 'Other', email: 'ADA@example.com' });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe('A team member with this email already exists.');
  });

  it('updates a member, including status and a free-text role; 404 for unknown ids; 409 on a taken e-mail', async () => {
    const [{ id }] = await (await call('GET', '/api/team-members')).json();
    const res = await call('PUT', `/api/team-members/${id}`, {
      ...ada,
      role: 'Chief Tinkerer',
      department: 'Analytical Engines',
      status: 'inactive',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      role: 'Chief Tinkerer',
      department: 'Analytical Engines',
      status: 'inactive',
    });
    expect((await call('PUT', '/api/team-members/00000000-0000-4000-8000-000000000000', ada)).status).toBe(404);
    expect((await call('PUT', '/api/team-members/not-a-uuid', ada)).status).toBe(404);
    const other = await (
      await call('POST', '/api/team-members', { name: 'Linus', email: 'linus@example.com', role: 'DevOps Engineer' })
    ).json();
    expect(other.department).toBeNull();
    const clash = await call('PUT', `/api/team-members/${other.id}`, { ...ada, name: 'Linus' });
    expect(clash.status).toBe(409);
    const invalid = await call('PUT', `/api/team-members/${other.id}`, { ...ada, name: '' });
    expect((await invalid.json()).message).toBe('Name is required');
  });

  it('deletes a member; a second delete is 404', async () => {
    const [first] = await (await call('GET', '/api/team-members')).json();
    expect((await call('DELETE', `/api/team-members/${first.id}`)).status).toBe(200);
    const again = await call('DELETE', `/api/team-members/${first.id}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'Team member not found.', code: 'not_found' });
    expect(await t.db.select().from(teamMembers).where(eq(teamMembers.id, first.id))).toEqual([]);
  });
});

describe('POST /api/team/invite', () => {
  it('validates the invite payload', async () => {
    const base = { email: 'new@example.com', firstName: 'New', lastName: 'Person', role: 'Security Analyst' };
    for (const [body, message] of [
      [{ ...base, email: 'nope' }, 'Valid email is required'],
      [{ ...base, firstName: '' }, 'First name is required'],
      [{ ...base, lastName: undefined }, 'Last name is required'],
      [{ ...base, role: '' }, 'Role is required'],
    ] as const) {
      const res = await call('POST', '/api/team/invite', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });

  it('answers {invitedEmail} and delivers an invitation with the register link to a real SMTP receiver', async () => {
    const res = await call('POST', '/api/team/invite', {
      email: 'Margaret@Example.com',
      firstName: 'Margaret',
      lastName: 'Hamilton',
      role: 'Senior Systems Engineer',
      department: 'Server Services',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ invitedEmail: 'margaret@example.com' });
    // This test app runs no mail listener (main.ts does): deliver here.
    await deliverDueMail({ db: t.db, config: t.config, logger: t.deps.logger });
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual(['margaret@example.com']);
    const body = received[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toContain('Grace Hopper has invited you');
    expect(body).toContain(`${t.config.appUrl}/register?email=margaret%40example.com`);
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'margaret@example.com'));
    expect(row.status).toBe('sent');
  });

  it('the register page pre-fills the invited e-mail', async () => {
    const html = await (await t.app.request('/register?email=margaret%40example.com')).text();
    expect(html).toContain('value="margaret@example.com"');
  });
});

describe('invitation limits', () => {
  const invite = (email: string, cookie: string) =>
    call('POST', '/api/team/invite', { email, firstName: 'Out', lastName: 'Sider', role: 'VIP' }, cookie);

  it('sends at most 3 invitations to one address a day, whoever sends them (429 with Retry-After)', async () => {
    const inviters = [];
    for (let i = 0; i < 4; i++) inviters.push(await createSignedInUser(t.db));
    for (let i = 0; i < 3; i++) expect((await invite('target@outside.example', inviters[i].cookie)).status).toBe(200);
    const res = await invite('TARGET@outside.example', inviters[3].cookie);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ code: 'throttled', message: 'Too many invitations. Please try again later.' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'target@outside.example'))).toHaveLength(3);
  });

  it('lets one user send at most 20 invitations an hour', async () => {
    const inviter = await createSignedInUser(t.db);
    for (let i = 0; i < 20; i++) expect((await invite(`person${i}@outside.example`, inviter.cookie)).status).toBe(200);
    expect((await invite('person20@outside.example', inviter.cookie)).status).toBe(429);
    expect((await invite('person20@outside.example', (await createSignedInUser(t.db)).cookie)).status).toBe(200);
  });
});
