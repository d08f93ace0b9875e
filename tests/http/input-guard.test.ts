import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
  // Throwaway routes: what a route reads after the guard has read the body.
  t.app.post('/api/test/text', async (c) => c.text(await c.req.text()));
  t.app.post('/api/test/bytes', async (c) => c.json([...new Uint8Array(await c.req.arrayBuffer())]));
});
afterAll(() => t.close());

const item = (fields: Record<string, unknown>) => ({ title: 'Title', content: 'Content', ...fields });
const createDocument = (body: unknown) => t.app.request('/api/documents', jsonRequest('POST', body, user.cookie));
const documentCount = async () => (await t.db.select({ id: documents.id }).from(documents)).length;

const formPost = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Cookie: user.cookie, 'Content-Type': type, Accept: 'text/html' },
    body,
  });

describe('text PostgreSQL cannot store is refused at the edge (400, never 500)', () => {
  it.each([
    ['title', { title: 'a\u0000b' }, 'Field "title" contains the NUL character'],
    ['content', { content: '\u0000' }, 'Field "content" contains the NUL character'],
    ['a tag', { tags: ['ok', 'x\u0000'] }, 'Field "tags[1]" contains the NUL character'],
    [
      'a nested value',
      { formModel: { steps: [{ note: '\u0000' }] } },
      'Field "formModel.steps[0].note" contains the NUL character',
    ],
    ['a key', { formModel: { 'a\u0000': 1 } }, 'A field name contains the NUL character'],
    ['a lone high surrogate', { title: 'x\ud800' }, 'Field "title" contains a lone surrogate'],
    ['a lone low surrogate', { excerpt: '\udc00y' }, 'Field "excerpt" contains a lone surrogate'],
  ])('JSON: U+0000 or a lone surrogate in %s → 400 naming the field, nothing stored', async (_n, fields, message) => {
    const before = await documentCount();
    const res = await createDocument(item(fields));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_text');
    expect(body.message).toContain(message);
    expect(await documentCount()).toBe(before);
  });

  it('JSON: a well-formed pair (emoji) and other control characters are kept as sent', async () => {
    const title = 'Restart \u{1F4A5} \u0001\u001b[31m\u007f\u0085';
    const res = await createDocument(item({ title }));
    expect(res.status).toBe(201);
    expect((await res.json()).title).toBe(title);
  });

  it('JSON read as text by the route (whatever its type): a NUL escape in the body is refused', async () => {
    const res = await t.app.request('/api/test/text', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'text/plain' },
      body: '{"documentId":"\\u0000"}',
    });
    expect(res.status).toBe(400);
  });

  it('a route still reads the exact body the client sent, after the guard has read it', async () => {
    const text = '{ "a" : "\u00e9\u{1F4A5}",\n  "b": [1, 2] }';
    const res = await t.app.request('/api/test/text', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: text,
    });
    expect(await res.text()).toBe(text);
    const bytes = new Uint8Array([0, 0xff, 0xfe, 0x80, 0x7b]);
    const raw = await t.app.request('/api/test/bytes', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(await raw.json()).toEqual([...bytes]);
  });

  it('JSON nested deeper than 64 levels → 400', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const res = await createDocument(item({ formModel: deep }));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/nested more than 64 levels/);
    const raw = await t.app.request('/api/documents', {
      ...jsonRequest('POST', undefined, user.cookie),
      headers: { Origin: TEST_ORIGIN, Cookie: user.cookie, 'Content-Type': 'application/json' },
      body: `{"title":"t","content":"c","formModel":{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`,
    });
    expect(raw.status).toBe(400);
  });

  it('form post: a NUL in a field → the 400 error page, not a 500', async () => {
    const res = await formPost('/settings/profile', 'firstName=A%00B&lastName=C&department=IT+Operations&timezone=UTC');
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('Field &quot;firstName&quot; contains the NUL character');
  });

  it('form post: a multipart body that cannot be parsed → 400', async () => {
    const res = await formPost('/settings/profile', 'not multipart at all', 'multipart/form-data; boundary=xyz');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('The form data could not be read.');
  });

  it('multipart: a NUL in a text field is refused, a file with NUL bytes is not the guard’s business', async () => {
    const bad = new FormData();
    bad.set('firstName', 'a\u0000');
    const refused = await t.app.request('/settings/profile', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: user.cookie },
      body: bad,
    });
    expect(refused.status).toBe(400);
    const PNG = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const upload = new FormData();
    upload.set('avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const res = await t.app.request('/settings/avatar', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: user.cookie },
      body: upload,
    });
    expect(res.status).toBe(303);
  });

  it.each(['/documents?q=%00', '/api/documents?q=a%00b', '/search?q=%00', '/api/servers?q=%00'])(
    'query string: %s → 400',
    async (url) => {
      const res = await t.app.request(url, { headers: { Cookie: user.cookie } });
      expect(res.status).toBe(400);
    },
  );

  it('path: an encoded NUL → 400', async () => {
    const res = await t.app.request('/api/documents/%00', { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(400);
  });
});
