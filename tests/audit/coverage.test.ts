import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../src/db/schema';
import { hashPassword } from '../../src/auth/service';
import { createItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { login, PASSWORD, sessionCookie } from '../auth/helpers';
import { enrol, nextCode, post, wrongCode } from '../auth/two-factor-helpers';

/**
 * The events issue 22 adds to the audit trail, each written with its change: sign-ins and their failures (password
 * and two-factor code), health checks started by people, jobs run by hand, version restores, and the token and
 * server changes (now in the transaction of their change).
 */

let t: TestContext;
let editor: TestUser;
let admin: TestUser;

beforeAll(async () => {
  // About who is recorded, not when a server goes offline: one failed check is enough.
  t = await createTestApp({ HEALTH_CHECK_FAILURES: '1' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t.close());

const events = (action: string, entityId?: string | null) =>
  t.db
    .select()
    .from(auditLog)
    .where(
      entityId === undefined
        ? eq(auditLog.action, action)
        : and(eq(auditLog.action, action), eq(auditLog.entityId, entityId ?? '')),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));

async function accountWithPassword(email: string, status: 'active' | 'pending_approval' = 'active') {
  const [u] = await t.db
    .insert(users)
    .values({ email, password: await hashPassword(PASSWORD), accountStatus: status, isEmailVerified: true })
    .returning();
  return u;
}

const call = (method: string, path: string, body?: unknown, cookie = editor.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));

describe('sign-ins', () => {
  it('a password sign-in: user.sign_in by the user, with the method and address', async () => {
    const u = await accountWithPassword('signin-ok@example.com');
    expect((await login(t, u.email, PASSWORD, '203.0.113.5')).status).toBe(200);
    const [e] = await events('user.sign_in', u.id);
    expect(e).toMatchObject({ actorId: u.id, entityType: 'user', details: { method: 'password', ip: '203.0.113.5' } });
  });

  it('a wrong password, an unknown e-mail and an account not active: user.sign_in_failed, no actor', async () => {
    const u = await accountWithPassword('signin-bad@example.com');
    expect((await login(t, u.email, 'not the password')).status).toBe(401);
    const [wrong] = await events('user.sign_in_failed', u.id);
    expect(wrong).toMatchObject({ actorId: null, details: { email: u.email, reason: 'invalid_credentials' } });
    expect(await events('user.sign_in', u.id)).toEqual([]);

    expect((await login(t, 'nobody-here@example.com', PASSWORD)).status).toBe(401);
    const unknown = (await events('user.sign_in_failed')).find(
      (e) => (e.details as { email: string }).email === 'nobody-here@example.com',
    );
    expect(unknown).toMatchObject({ entityId: null, details: { reason: 'invalid_credentials' } });

    const pending = await accountWithPassword('signin-pending@example.com', 'pending_approval');
    expect((await login(t, pending.email, PASSWORD)).status).toBe(403);
    const [refused] = await events('user.sign_in_failed', pending.id);
    expect(refused).toMatchObject({ details: { reason: 'account_pending_approval' } });
  });

  it('the two-factor step: a wrong code is a failure, the right one the sign-in', async () => {
    const u = await accountWithPassword('signin-2fa@example.com');
    const first = await login(t, u.email, PASSWORD);
    const { secret } = await enrol(t, sessionCookie(first));
    const waiting = sessionCookie(await login(t, u.email, PASSWORD));
    // The set-up used this step's code: the next step's is the one the phone shows a moment later.
    const code = nextCode(secret);
    expect((await post(t, '/api/auth/two-factor', { code: wrongCode(code) }, waiting)).status).toBe(401);
    const [failed] = await events('user.sign_in_failed', u.id);
    expect(failed).toMatchObject({ details: { method: 'two_factor', reason: 'invalid_code' } });
    expect((await post(t, '/api/auth/two-factor', { code }, waiting)).status).toBe(200);
    const [done] = await events('user.sign_in', u.id);
    expect(done).toMatchObject({ actorId: u.id, details: { method: 'two_factor' } });
    expect(await events('user.two_factor_enabled', u.id)).toHaveLength(1);
  });
});

describe('health checks started by people, jobs run by hand', () => {
  it('Run Health Check: server.check by the person who asked', async () => {
    const created = await call('POST', '/api/servers', { name: 'audit-check-01' });
    const { id } = await created.json();
    expect((await call('POST', `/api/servers/${id}/health-check`)).status).toBe(200);
    const [e] = await events('server.check', id);
    expect(e).toMatchObject({ actorId: editor.id, entityType: 'server', details: { status: 'offline' } });
  });

  it('Run now on /admin/jobs: job.run by the admin, naming the job', async () => {
    const res = await t.app.request('/admin/jobs/token-expiry/run', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: admin.cookie },
    });
    expect(res.status).toBe(303);
    const [e] = await events('job.run', 'token-expiry');
    expect(e).toMatchObject({ actorId: admin.id, entityType: 'job' });
  });
});

describe('versions, tokens and servers', () => {
  it('restoring a version: knowledge.restore with the version restored from', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Restore me', content: 'one' }, editor.id);
    await call('PUT', `/api/knowledge-base/${item.id}`, { title: 'Restore me', content: 'two', version: 1 });
    const versions = (await (await call('GET', `/api/knowledge-base/${item.id}/versions`)).json()) as {
      id: string;
      version: number;
    }[];
    const v1 = versions.find((v) => v.version === 1)!;
    expect((await call('POST', `/api/knowledge-base/${item.id}/restore/${v1.id}`, {})).status).toBe(200);
    const [e] = await events('knowledge.restore', item.id);
    expect(e).toMatchObject({ actorId: editor.id, entityType: 'knowledge_item', details: { fromVersion: 1 } });
  });

  it('personal tokens: api_token.create and api_token.revoke with the change', async () => {
    const created = await call('POST', '/api/me/tokens', { name: 'audit-token', scope: 'read' });
    expect(created.status).toBeLessThan(300);
    const { id } = await created.json();
    expect(await events('api_token.create', id)).toHaveLength(1);
    expect((await call('DELETE', `/api/me/tokens/${id}`)).status).toBeLessThan(300);
    expect(await events('api_token.revoke', id)).toHaveLength(1);
  });

  it('servers: create, update and delete are recorded; a refused create records nothing', async () => {
    const { id } = await (await call('POST', '/api/servers', { name: 'audit-srv-01' })).json();
    expect((await call('PUT', `/api/servers/${id}`, { name: 'audit-srv-01', status: 'maintenance' })).status).toBe(200);
    expect((await call('DELETE', `/api/servers/${id}`)).status).toBeLessThan(300);
    for (const action of ['server.create', 'server.update', 'server.delete'])
      expect(await events(action, id), action).toHaveLength(1);
    const before = (await events('server.create')).length;
    await call('POST', '/api/servers', { name: 'audit-dup' });
    expect((await call('POST', '/api/servers', { name: 'audit-dup' })).status).toBe(409);
    expect(await events('server.create')).toHaveLength(before + 1);
  });
});
