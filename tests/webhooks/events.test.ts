import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users, webhookDeliveries } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { deliveryBody } from '../../src/webhooks/messages';
import { addServer, statusChange } from '../alerts/support';
import { api, deliveriesOf, register } from './support';

/**
 * Each change queues its events in its own transaction, one delivery per endpoint that wants them: items, servers,
 * the status changes the checks announce (check.failed / check.recovered), user approval. A change that rolls back
 * queues nothing.
 */
let t: TestContext;
let admin: TestUser;
let editor: TestUser;
let all: { id: string };
let serversOnly: { id: string };

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  all = await register(t, admin, { url: 'http://127.0.0.1:9/all' });
  serversOnly = await register(t, admin, {
    url: 'http://127.0.0.1:9/servers',
    events: ['server.created', 'server.deleted'],
  });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.delete(webhookDeliveries);
});

const events = async (endpointId = all.id) => (await deliveriesOf(t, endpointId)).map((d) => d.event);
const ok = async (who: TestUser, method: string, path: string, body?: unknown, status = 200) => {
  const res = await api(t, who, method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

describe('items', () => {
  it('created, updated, published (the switch), deleted: with the item, its page and who did it', async () => {
    const item = await ok(
      editor,
      'POST',
      '/api/knowledge-base',
      { title: 'Rotate keys', content: 'x', category: 'Ops' },
      201,
    );
    await ok(editor, 'PUT', `/api/knowledge-base/${item.id}`, { title: 'Rotate keys', content: 'y', version: 1 });
    await ok(editor, 'PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Rotate keys',
      content: 'y',
      isPublished: true,
      version: 2,
    });
    await ok(editor, 'DELETE', `/api/knowledge-base/${item.id}`);
    expect(await events()).toEqual(['item.created', 'item.updated', 'item.updated', 'item.published', 'item.deleted']);
    const [created, , , published, deleted] = await deliveriesOf(t, all.id);
    expect(created.payload).toEqual({
      item: {
        id: item.id,
        space: 'knowledge',
        title: 'Rotate keys',
        version: 1,
        state: 'draft',
        category: 'Ops',
        tags: [],
        visibility: 'everyone',
      },
      path: `/knowledge-base/${item.id}/rotate-keys`,
      actorId: editor.id,
    });
    expect(published.payload).toMatchObject({ item: { id: item.id, version: 3, state: 'published' } });
    expect(deleted.payload).toMatchObject({ item: { id: item.id, title: 'Rotate keys' } });
    expect(deleted.payload).not.toHaveProperty('path');
    // Documents are items too; an endpoint that wants only server events gets none of these.
    await ok(editor, 'POST', '/api/documents', { title: 'A document', content: 'x' }, 201);
    expect((await deliveriesOf(t, all.id)).at(-1)?.payload).toMatchObject({ item: { space: 'documents' } });
    expect(await events(serversOnly.id)).toEqual([]);
  });

  it('published after approval: the review workflow queues item.published', async () => {
    await ok(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 });
    const reviewer = await createSignedInUser(t.db, { role: 'editor' });
    const item = await ok(
      editor,
      'POST',
      '/api/knowledge-base',
      { title: 'Failover', content: 'x', templateType: 'work_instruction' },
      201,
    );
    await ok(editor, 'POST', `/api/knowledge-base/${item.id}/review-requests`, { reviewerIds: [reviewer.id] });
    await ok(reviewer, 'POST', `/api/knowledge-base/${item.id}/reviews`, { decision: 'approve' });
    expect(await events()).toEqual(['item.created', 'item.published']);
    await ok(admin, 'PUT', '/api/admin/review-policy', {});
  });

  it('a save that fails after queueing its event (an unknown server to link, 400) leaves nothing queued', async () => {
    // The item is written and its event queued before the links are checked: the rollback takes the event too.
    const nowhere = '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';
    const refused = await api(t, editor, 'POST', '/api/knowledge-base', {
      title: 'Linked to nothing',
      content: 'x',
      serverIds: [nowhere],
    });
    expect(refused).toMatchObject({ status: 400, body: { message: `There is no server with the id ${nowhere}.` } });
    expect(await events()).toEqual([]);
    const item = await ok(editor, 'POST', '/api/knowledge-base', { title: 'Stale', content: 'x' }, 201);
    await ok(editor, 'PUT', `/api/knowledge-base/${item.id}`, { title: 'Stale', content: 'y', version: 7 }, 409);
    const update = await api(t, editor, 'PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Stale',
      content: 'y',
      version: 1,
      serverIds: [nowhere],
    });
    expect(update.status).toBe(400);
    expect(await events()).toEqual(['item.created']);
  });

  it('a restricted item is named by its id only: no title, category, tags or page, a neutral chat line', async () => {
    const item = await ok(
      editor,
      'POST',
      '/api/knowledge-base',
      { title: 'Vault rotation', content: 'x', category: 'Secrets', tags: ['vault'] },
      201,
    );
    await ok(editor, 'PUT', `/api/knowledge-base/${item.id}/visibility`, { visibility: 'restricted' });
    await ok(editor, 'PUT', `/api/knowledge-base/${item.id}`, { title: 'Vault rotation v2', content: 'y', version: 1 });
    await ok(editor, 'DELETE', `/api/knowledge-base/${item.id}`);
    const [, updated, deleted] = await deliveriesOf(t, all.id);
    expect(updated.payload).toEqual({
      item: { id: item.id, space: 'knowledge', version: 2, visibility: 'restricted' },
      actorId: editor.id,
    });
    expect(deleted.payload).toEqual({
      item: { id: item.id, space: 'knowledge', version: 2, visibility: 'restricted' },
      actorId: editor.id,
    });
    expect(JSON.stringify([updated.payload, deleted.payload])).not.toMatch(/Vault|Secrets|vault|path|url/);
    const message = { id: updated.id, event: updated.event, occurredAt: new Date(), data: updated.payload };
    expect(JSON.parse(deliveryBody('slack', message, 'https://ops.example.com'))).toEqual({
      text: ':large_blue_circle: A restricted item was updated',
    });
    const card = JSON.parse(deliveryBody('teams', message, 'https://ops.example.com'));
    expect(card).toMatchObject({ summary: 'A restricted item was updated', potentialAction: [] });
    expect(JSON.stringify(card)).not.toContain('Vault');
  });

  it('a draft saved over a published item sends what readers see: the published title, not the draft’s', async () => {
    await ok(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 });
    try {
      const reviewer = await createSignedInUser(t.db, { role: 'editor' });
      const base = `/api/knowledge-base`;
      const item = await ok(
        editor,
        'POST',
        base,
        { title: 'Failover drill', content: 'x', category: 'DR', templateType: 'work_instruction' },
        201,
      );
      await ok(editor, 'POST', `${base}/${item.id}/review-requests`, { reviewerIds: [reviewer.id] });
      await ok(reviewer, 'POST', `${base}/${item.id}/reviews`, { decision: 'approve' });
      await t.db.delete(webhookDeliveries);
      // Version 3 is a draft nobody may read yet: a new title and category.
      await ok(editor, 'PUT', `${base}/${item.id}`, {
        title: 'Merger cutover (secret)',
        content: 'y',
        category: 'Unannounced',
        version: 2,
      });
      const [updated] = await deliveriesOf(t, all.id);
      expect(updated.event).toBe('item.updated');
      expect(updated.payload).toEqual({
        item: {
          id: item.id,
          space: 'knowledge',
          title: 'Failover drill',
          version: 2,
          latestVersion: 3,
          state: 'published',
          category: 'DR',
          tags: [],
          visibility: 'everyone',
        },
        path: `/knowledge-base/${item.id}/failover-drill`,
        actorId: editor.id,
      });
      expect(JSON.stringify(updated.payload)).not.toMatch(/Merger|secret|Unannounced|cutover/);
      const message = { id: updated.id, event: updated.event, occurredAt: new Date(), data: updated.payload };
      expect(JSON.parse(deliveryBody('slack', message, 'https://ops.example.com')).text).toBe(
        `:large_blue_circle: A new draft of Failover drill was saved <https://ops.example.com/knowledge-base/${item.id}/failover-drill|Open>`,
      );
    } finally {
      await ok(admin, 'PUT', '/api/admin/review-policy', {});
    }
  });
});

describe('servers', () => {
  it('created, updated (with a status set by hand), deleted: the server as the API answers it', async () => {
    const server = await ok(
      editor,
      'POST',
      '/api/servers',
      {
        name: 'hook-web-1',
        ipAddress: '127.0.0.77',
        environment: 'production',
        status: 'maintenance',
        teamOwner: 'Platform',
        tags: ['edge'],
        notes: 'root password is in the blue binder',
        description: 'the merger box',
        keyContacts: 'Pat, +1 555 0100',
      },
      201,
    );
    await ok(editor, 'PUT', `/api/servers/${server.id}`, {
      name: 'hook-web-1',
      ipAddress: '127.0.0.77',
      environment: 'production',
      status: 'offline',
    });
    await ok(editor, 'DELETE', `/api/servers/${server.id}`);
    expect(await events()).toEqual(['server.created', 'server.updated', 'server.status_changed', 'server.deleted']);
    const [created, , changed] = await deliveriesOf(t, all.id);
    // Who and where it is, its state and owner; not its notes, description or contacts.
    expect(created.payload).toEqual({
      server: {
        id: server.id,
        name: 'hook-web-1',
        environment: 'production',
        status: 'maintenance',
        hostname: null,
        ipAddress: '127.0.0.77',
        teamOwner: 'Platform',
        tags: ['edge'],
      },
      path: `/infrastructure/${server.id}`,
      actorId: editor.id,
    });
    expect(changed.payload).toMatchObject({
      server: { id: server.id, name: 'hook-web-1' },
      from: 'maintenance',
      to: 'offline',
      via: 'manual',
    });
    expect(await events(serversOnly.id)).toEqual(['server.created', 'server.deleted']);
  });

  it('status changes the checks announce: status_changed, and check.failed / check.recovered', async () => {
    const server = await addServer(t);
    const at = new Date(Date.now() - 60_000);
    await statusChange(t, server.id, 'online', 'offline', at);
    await statusChange(t, server.id, 'offline', 'online', new Date());
    expect(await events()).toEqual([
      'server.status_changed',
      'check.failed',
      'server.status_changed',
      'check.recovered',
    ]);
    const [first, failed] = await deliveriesOf(t, all.id);
    expect(failed.payload).toEqual({
      server: { id: server.id, name: server.name, address: server.ipAddress, environment: 'production' },
      from: 'online',
      to: 'offline',
      at: at.toISOString(),
      via: 'check',
      path: `/infrastructure/${server.id}`,
    });
    expect(first.occurredAt.toISOString()).toBe(at.toISOString());
    // Online to warning is a status change, not a failed check.
    await t.db.delete(webhookDeliveries);
    await statusChange(t, server.id, 'online', 'warning', new Date());
    expect(await events()).toEqual(['server.status_changed']);
  });

  it('a status an agent pushes with its metrics', async () => {
    const server = await addServer(t);
    await ok(editor, 'PUT', `/api/servers/${server.id}/metrics`, {
      cpuUsage: 1,
      memoryUsage: 2,
      diskUsage: 3,
      uptime: 4,
    });
    expect(await events()).toEqual([]);
    await ok(editor, 'PUT', `/api/servers/${server.id}/metrics`, {
      cpuUsage: 1,
      memoryUsage: 2,
      diskUsage: 3,
      uptime: 4,
      status: 'warning',
    });
    expect(await events()).toEqual(['server.status_changed']);
    expect((await deliveriesOf(t, all.id))[0].payload).toMatchObject({ from: 'online', to: 'warning', via: 'metrics' });
  });

  it('two agents pushing the same new status at once: one status change, one event', async () => {
    const server = await addServer(t);
    const push = () =>
      api(t, editor, 'PUT', `/api/servers/${server.id}/metrics`, {
        cpuUsage: 1,
        memoryUsage: 2,
        diskUsage: 3,
        uptime: 4,
        status: 'offline',
      });
    const answers = await Promise.all([push(), push(), push()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await events()).toEqual(['server.status_changed']);
    // Metrics without a status leave the status alone.
    await ok(editor, 'PUT', `/api/servers/${server.id}/metrics`, {
      cpuUsage: 5,
      memoryUsage: 5,
      diskUsage: 5,
      uptime: 9,
    });
    expect((await api(t, editor, 'GET', `/api/servers/${server.id}`)).body).toMatchObject({
      status: 'offline',
      cpuUsage: 5,
    });
    expect(await events()).toEqual(['server.status_changed']);
  });
});

describe('users', () => {
  it('user.approved when an admin approves an account (not when one is rejected)', async () => {
    const pending = async (email: string) =>
      (
        await t.db
          .insert(users)
          .values({
            email,
            firstName: 'Pat',
            lastName: 'Pending',
            isEmailVerified: true,
            accountStatus: 'pending_approval',
          })
          .returning()
      )[0];
    const pat = await pending('pat@example.com');
    const rex = await pending('rex@example.com');
    await ok(admin, 'POST', `/api/admin/approve-user/${pat.id}`, { role: 'viewer' });
    await ok(admin, 'POST', `/api/admin/reject-user/${rex.id}`);
    expect(await events()).toEqual(['user.approved']);
    // Who joined, not how to reach them: no e-mail address.
    const [approved] = await deliveriesOf(t, all.id);
    expect(approved.payload).toEqual({
      user: { id: pat.id, name: 'Pat Pending', role: 'viewer' },
      actorId: admin.id,
    });
    expect(JSON.stringify(approved.payload)).not.toContain('@');
    const message = { id: approved.id, event: approved.event, occurredAt: new Date(), data: approved.payload };
    expect(JSON.parse(deliveryBody('slack', message, 'https://ops.example.com')).text).toBe(
      ':large_blue_circle: Pat Pending was approved',
    );
  });
});
