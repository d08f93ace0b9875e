import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/tokens';
import { apiTokens, auditLog } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Settings › API tokens and /api/me/tokens: a user's own personal tokens. */
let t: TestContext;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t.db, { firstName: 'Ada' });
  bob = await createSignedInUser(t.db, { firstName: 'Bob', role: 'viewer' });
});
afterAll(() => t.close());

const api = (method: string, path: string, body: unknown, cookie: string) =>
  t.app.request(path, jsonRequest(method, body, cookie));

async function create(user: TestUser, body: Record<string, unknown>) {
  const res = await api('POST', '/api/me/tokens', body, user.cookie);
  expect(res.status).toBe(201);
  return res.json() as Promise<{ id: string; token: string; name: string; scope: string; expiresAt: string | null }>;
}

/** A form post from the settings page (same origin), optionally as htmx. */
function form(fields: Record<string, string>, cookie: string, htmx = false): RequestInit {
  const headers: Record<string, string> = {
    Origin: TEST_ORIGIN,
    Cookie: cookie,
    'Content-Type': 'application/x-www-form-urlencoded',
  };
  if (htmx) headers['HX-Request'] = 'true';
  return { method: 'POST', headers, body: new URLSearchParams(fields).toString() };
}

describe('/api/me/tokens', () => {
  it('creates a token shown once, with a recognisable prefix, stored as its sha256', async () => {
    const created = await create(ada, { name: 'backup script', scope: 'read' });
    expect(created).toMatchObject({ name: 'backup script', scope: 'read', expiresAt: null });
    expect(created.token).toMatch(/^ohp_[A-Za-z0-9_-]{40,}$/);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row).toMatchObject({
      kind: 'personal',
      scope: 'read',
      createdBy: ada.id,
      tokenHash: hashToken(created.token),
    });
    expect(JSON.stringify(row)).not.toContain(created.token);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audit).toMatchObject({ action: 'api_token.create', actorId: ada.id });
  });

  it('sets the expiry from 30, 90 or 365 days, or none', async () => {
    for (const days of [30, 90, 365]) {
      const { expiresAt } = await create(ada, { name: `in ${days}`, scope: 'read-write', expiresInDays: days });
      const left = (new Date(expiresAt!).getTime() - Date.now()) / 86_400_000;
      expect(left).toBeGreaterThan(days - 0.1);
      expect(left).toBeLessThanOrEqual(days);
    }
    expect((await create(ada, { name: 'forever', scope: 'read', expiresInDays: null })).expiresAt).toBeNull();
  });

  it('refuses bad input with 400 { message }', async () => {
    const refused = async (body: unknown) => {
      const res = await api('POST', '/api/me/tokens', body, ada.cookie);
      expect(res.status).toBe(400);
      return (await res.json()).message as string;
    };
    expect(await refused({ scope: 'read' })).toBe('Token name is required');
    expect(await refused({ name: ' ', scope: 'read' })).toBe('Token name is required');
    expect(await refused({ name: 'x', scope: 'admin' })).toBe('scope must be "read" or "read-write".');
    expect(await refused({ name: 'x', scope: 'read', expiresInDays: 7 })).toBe(
      'expiresInDays must be 30, 90 or 365 (or none).',
    );
    expect(await refused({ name: 'x'.repeat(101), scope: 'read' })).toBe('Token name must be at most 100 characters.');
  });

  it('lists only one’s own live tokens, never a secret', async () => {
    const mine = await create(bob, { name: 'bob reads', scope: 'read', expiresInDays: 90 });
    const revoked = await create(bob, { name: 'bob old', scope: 'read' });
    await api('DELETE', `/api/me/tokens/${revoked.id}`, undefined, bob.cookie);
    await create(ada, { name: 'ada only', scope: 'read' });
    const res = await api('GET', '/api/me/tokens', undefined, bob.cookie);
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list).toEqual([
      {
        id: mine.id,
        name: 'bob reads',
        scope: 'read',
        createdAt: expect.any(String),
        expiresAt: mine.expiresAt,
        lastUsedAt: null,
      },
    ]);
    const text = JSON.stringify(list);
    expect(text).not.toContain('ohp_');
    expect(text).not.toContain(hashToken(mine.token));
  });

  it('revokes only one’s own tokens: another user’s, an unknown or a metrics token’s id is 404', async () => {
    const adas = await create(ada, { name: 'ada revoke', scope: 'read' });
    const other = await api('DELETE', `/api/me/tokens/${adas.id}`, undefined, bob.cookie);
    expect(other.status).toBe(404);
    expect((await other.json()).message).toBe('Token not found.');
    expect((await api('DELETE', '/api/me/tokens/not-a-uuid', undefined, ada.cookie)).status).toBe(404);
    const [agent] = await t.db
      .insert(apiTokens)
      .values({ name: 'agent', tokenHash: hashToken('ops_agent-of-ada'), createdBy: ada.id })
      .returning();
    expect((await api('DELETE', `/api/me/tokens/${agent.id}`, undefined, ada.cookie)).status).toBe(404);
    const [still] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, adas.id));
    expect(still.revokedAt).toBeNull();
    expect((await api('DELETE', `/api/me/tokens/${adas.id}`, undefined, ada.cookie)).status).toBe(200);
    expect((await api('DELETE', `/api/me/tokens/${adas.id}`, undefined, ada.cookie)).status).toBe(404);
  });

  it('is for signed-in users only (401)', async () => {
    expect((await t.app.request('/api/me/tokens')).status).toBe(401);
    expect((await t.app.request('/api/me/tokens', jsonRequest('POST', { name: 'x', scope: 'read' }))).status).toBe(401);
  });
});

describe('Settings › API tokens', () => {
  it('lists the tokens on /settings without their secrets', async () => {
    const user = await createSignedInUser(t.db);
    const created = await create(user, { name: 'nightly export', scope: 'read-write', expiresInDays: 30 });
    const html = await (await t.app.request('/settings', { headers: { Cookie: user.cookie } })).text();
    expect(html).toContain('API Tokens');
    expect(html).toContain('nightly export');
    expect(html).toContain('Read and write');
    expect(html).toContain(`action="/settings/tokens/${created.id}/revoke"`);
    expect(html).not.toContain(created.token);
    expect(html).toContain('action="/settings/tokens"');
  });

  it('creates a token from the form and shows it once, on a page no cache keeps', async () => {
    const user = await createSignedInUser(t.db);
    const res = await t.app.request(
      '/settings/tokens',
      form({ name: 'deploy bot', scope: 'read', expiresInDays: '' }, user.cookie),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('API Token Created');
    const token = /ohp_[A-Za-z0-9_-]+/.exec(html)?.[0];
    expect(token).toBeDefined();
    const [row] = await t.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(token!)));
    expect(row).toMatchObject({ name: 'deploy bot', scope: 'read', createdBy: user.id, expiresAt: null });
    const settings = await (await t.app.request('/settings', { headers: { Cookie: user.cookie } })).text();
    expect(settings).toContain('deploy bot');
    expect(settings).not.toContain(token!);
  });

  it('sends an invalid form back with its errors (422) and creates nothing', async () => {
    const user = await createSignedInUser(t.db);
    const res = await t.app.request(
      '/settings/tokens',
      form({ name: '', scope: 'read', expiresInDays: '90' }, user.cookie),
    );
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Token name is required');
    expect(await t.db.select().from(apiTokens).where(eq(apiTokens.createdBy, user.id))).toEqual([]);
  });

  it('revokes a token: 303 back without JavaScript, the section with a toast for htmx; never another user’s', async () => {
    const user = await createSignedInUser(t.db);
    const one = await create(user, { name: 'first', scope: 'read' });
    const two = await create(user, { name: 'second', scope: 'read' });
    const plain = await t.app.request(`/settings/tokens/${one.id}/revoke`, form({}, user.cookie));
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/settings#api-tokens');
    const htmx = await t.app.request(`/settings/tokens/${two.id}/revoke`, form({}, user.cookie, true));
    expect(htmx.status).toBe(200);
    expect(JSON.parse(htmx.headers.get('hx-trigger')!)).toMatchObject({ showToast: { title: 'API Token Revoked' } });
    const fragment = await htmx.text();
    expect(fragment).toContain('id="api-tokens"');
    expect(fragment).toContain('You have no API tokens.');
    expect(fragment).not.toContain('<html');
    const rows = await t.db.select().from(apiTokens).where(eq(apiTokens.createdBy, user.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);

    const adas = await create(ada, { name: 'not yours', scope: 'read' });
    const foreign = await t.app.request(`/settings/tokens/${adas.id}/revoke`, form({}, user.cookie));
    expect(foreign.status).toBe(404);
    const [kept] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, adas.id));
    expect(kept.revokedAt).toBeNull();
  });
});
