import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, user.cookie));
const path = '/api/knowledge-base';

async function create() {
  const res = await call('POST', path, { title: 'Rotate certificates', content: 'Step one', tags: ['tls'] });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; version: number };
}
const changeLogs = async (id: string) =>
  ((await (await call('GET', `${path}/${id}/versions`)).json()) as { changeLog: string }[]).map((v) => v.changeLog);

describe('change log of a version', () => {
  it('says what an update changed', async () => {
    const item = await create();
    const put = await call('PUT', `${path}/${item.id}`, {
      title: 'Rotate TLS certificates',
      content: 'Step one\nStep two',
      tags: ['tls', 'pki'],
      version: 1,
    });
    expect(put.status).toBe(200);
    await call('PUT', `${path}/${item.id}`, {
      title: 'Rotate TLS certificates',
      content: 'Step one\nStep two',
      category: 'Security',
      version: 2,
    });
    await call('PUT', `${path}/${item.id}`, {
      title: 'Rotate TLS certificates',
      content: 'Step one\nStep two',
      version: 3,
    });
    expect(await changeLogs(item.id)).toEqual([
      'Saved without changes',
      'Changed category',
      'Changed title, content and tags',
      'Created',
    ]);
  });

  it("keeps the author's note (trimmed) as the change log instead", async () => {
    const item = await create();
    const put = await call('PUT', `${path}/${item.id}`, {
      title: 'Rotate certificates',
      content: 'Step one, checked',
      changeNote: '  Clarified step one after the March incident ',
      version: 1,
    });
    expect(put.status).toBe(200);
    expect((await changeLogs(item.id))[0]).toBe('Clarified step one after the March incident');
    // An empty note says what changed.
    await call('PUT', `${path}/${item.id}`, {
      title: 'Rotate certificates',
      content: 'Step one',
      changeNote: ' ',
      version: 2,
    });
    expect((await changeLogs(item.id))[0]).toBe('Changed content');
  });

  it('refuses a note over 500 characters or one that is not text, and saves nothing', async () => {
    const item = await create();
    for (const changeNote of ['x'.repeat(501), 42]) {
      const res = await call('PUT', `${path}/${item.id}`, {
        title: 'New title',
        content: 'Step one',
        changeNote,
        version: 1,
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(/Change note must be/);
    }
    expect(await changeLogs(item.id)).toEqual(['Created']);
  });
});
