import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
  other = await createSignedInUser(t.db);
});
afterAll(() => t.close());

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(14),
]);

async function uploadUrl(cookie = user.cookie): Promise<string> {
  const res = await t.app.request('/api/objects/upload', jsonRequest('POST', undefined, cookie));
  expect(res.status).toBe(200);
  const { uploadURL } = await res.json();
  expect(uploadURL).toMatch(/^\/api\/objects\/put\/[0-9a-f-]{36}\?exp=\d+&sig=/);
  return uploadURL;
}

const put = (url: string, body: Buffer, type: string | null, cookie = user.cookie) =>
  t.app.request(url, {
    method: 'PUT',
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(type ? { 'Content-Type': type } : {}) },
    body: new Uint8Array(body),
  });

describe('image upload', () => {
  it('uploads a PNG, makes it public and serves it with its type, nosniff and long caching', async () => {
    const url = await uploadUrl();
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    const acl = await t.app.request(
      '/api/objects/acl',
      jsonRequest('PUT', { imageURL: url, visibility: 'public' }, user.cookie),
    );
    expect(acl.status).toBe(200);
    const { objectPath } = await acl.json();
    expect(objectPath).toMatch(/^\/objects\/[0-9a-f-]{36}$/);
    const res = await t.app.request(objectPath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('max-age=31536000');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('serves an image with its own sandbox CSP, not the page CSP', async () => {
    const url = await uploadUrl();
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    const { objectPath } = await (
      await t.app.request('/api/objects/acl', jsonRequest('PUT', { imageURL: url }, user.cookie))
    ).json();
    const res = await t.app.request(objectPath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    // The other secure headers still come from the app.
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['JPEG', JPEG, 'image/jpeg'],
    ['GIF', GIF, 'image/gif'],
    ['WebP', WEBP, 'image/webp'],
  ])('accepts %s by its bytes', async (_n, bytes, type) => {
    expect((await put(await uploadUrl(), bytes, type)).status).toBe(200);
  });

  it.each([
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/html'],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'image/svg+xml'],
    ['HTML claiming to be PNG', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
    ['PNG claiming to be GIF', PNG, 'image/gif'],
    ['PDF', Buffer.from('%PDF-1.4'), 'application/pdf'],
  ])('refuses %s with 415', async (_n, bytes, type) => {
    const res = await put(await uploadUrl(), bytes, type);
    expect(res.status).toBe(415);
    expect((await res.json()).message).toBeTruthy();
  });

  it('refuses more than 10 MB with 413 (the 5 MB JSON limit does not apply)', async () => {
    const six = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    expect((await put(await uploadUrl(), six, 'image/png')).status).toBe(200);
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    expect((await put(await uploadUrl(), big, 'image/png')).status).toBe(413);
  });

  it('refuses forged, reused, foreign or signed-out upload URLs', async () => {
    const url = await uploadUrl();
    expect((await put(url.replace(/sig=[^&]+/, 'sig=AAAA'), PNG, 'image/png')).status).toBe(403);
    expect((await put(url.replace(/exp=\d+/, 'exp=9999999999'), PNG, 'image/png')).status).toBe(403);
    expect((await put(url, PNG, 'image/png', other.cookie)).status).toBe(403);
    expect((await t.app.request(url, { method: 'PUT', body: new Uint8Array(PNG) })).status).toBe(401);
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    expect((await put(url, PNG, 'image/png')).status).toBe(409);
    expect((await t.app.request('/api/objects/upload', jsonRequest('POST'))).status).toBe(401);
  });

  it('keeps private images for signed-in users and lets only the owner change the ACL', async () => {
    const url = await uploadUrl();
    await put(url, PNG, 'image/png');
    const id = /put\/([^?]+)/.exec(url)![1];
    expect((await t.app.request(`/objects/${id}`)).status).toBe(404);
    expect((await t.app.request(`/objects/${id}`, { headers: { Cookie: other.cookie } })).status).toBe(200);
    expect(
      (
        await t.app.request(
          '/api/objects/acl',
          jsonRequest('PUT', { imageURL: `/objects/${id}`, visibility: 'public' }, other.cookie),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.app.request(
          '/api/objects/acl',
          jsonRequest('PUT', { imageURL: '/objects/nope', visibility: 'public' }, user.cookie),
        )
      ).status,
    ).toBe(404);
    expect(
      (await t.app.request('/api/objects/acl', jsonRequest('PUT', { visibility: 'public' }, user.cookie))).status,
    ).toBe(400);
    expect((await t.app.request('/objects/not-a-uuid')).status).toBe(404);
  });
});
