import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { objects, users } from '../../src/db/schema';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function upload(bytes: Uint8Array, filename: string, type: string, cookie = user.cookie) {
  const form = new FormData();
  form.set('avatar', new Blob([new Uint8Array(bytes)], { type }), filename);
  return t.app.request('/settings/avatar', {
    method: 'POST',
    headers: { Cookie: cookie, Origin: TEST_ORIGIN },
    body: form,
  });
}
const avatarOf = async (id = user.id) =>
  (await t.db.select({ url: users.profileImageUrl }).from(users).where(eq(users.id, id)))[0].url;
const page = async (path = '/settings') => (await t.app.request(path, { headers: { Cookie: user.cookie } })).text();

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(() => t.close());

describe('Change Avatar (Settings › Profile Information)', () => {
  it('shows initials and an upload form that works without JavaScript', async () => {
    const html = await page();
    expect(html).toContain('action="/settings/avatar"');
    expect(html).toMatch(/enctype="multipart\/form-data"/i); // React writes encType; HTML attribute names ignore case
    expect(html).toContain('Change Avatar');
    expect(html).not.toContain('action="/settings/avatar/remove"');
  });

  it('stores an uploaded image, serves it to signed-in users only, and shows it in the sidebar', async () => {
    const res = await upload(PNG, 'me.png', 'image/png');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings?updated=avatar');
    const url = (await avatarOf())!;
    expect(url).toMatch(/^\/objects\/[0-9a-f-]{36}$/);
    const image = await t.app.request(url, { headers: { Cookie: user.cookie } });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    expect((await t.app.request(url)).status).toBe(404);
    const html = await page(res.headers.get('location')!);
    expect(html).toContain('Profile Updated');
    expect(html.match(new RegExp(`<img src="${url}"`, 'g'))?.length).toBe(2); // sidebar and settings
    expect(await page('/team')).toContain(`<img src="${url}"`);
  });

  it('replacing the avatar deletes the old image; Remove goes back to initials and deletes it too', async () => {
    const first = (await avatarOf())!;
    expect((await upload(PNG, 'again.png', 'image/png')).status).toBe(303);
    const second = (await avatarOf())!;
    expect(second).not.toBe(first);
    expect(
      await t.db
        .select()
        .from(objects)
        .where(eq(objects.id, first.slice('/objects/'.length))),
    ).toEqual([]);
    const removed = await t.app.request('/settings/avatar/remove', {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: TEST_ORIGIN },
    });
    expect(removed.status).toBe(303);
    expect(await avatarOf()).toBeNull();
    expect(
      await t.db
        .select()
        .from(objects)
        .where(eq(objects.id, second.slice('/objects/'.length))),
    ).toEqual([]);
  });

  it('refuses what is not an image by its bytes (SVG, HTML, a lying name and type), an empty file and one over 2 MB', async () => {
    const cases: [Uint8Array, string, string, string][] = [
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'x.svg',
        'image/svg+xml',
        'Only PNG, JPEG, GIF and WebP images can be used as an avatar.',
      ],
      [
        Buffer.from('<html><script>alert(1)</script></html>'),
        'x.png',
        'image/png',
        'Only PNG, JPEG, GIF and WebP images can be used as an avatar.',
      ],
      [new Uint8Array(), 'empty.png', 'image/png', 'Choose an image to upload.'],
      [Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), 'big.png', 'image/png', 'Avatars can be at most 2 MB.'],
    ];
    for (const [bytes, name, type, message] of cases) {
      const res = await upload(bytes, name, type);
      expect(res.status, name).toBe(422);
      expect(await res.text(), name).toContain(message);
    }
    expect(await avatarOf()).toBeNull();
    expect(await t.db.select().from(objects)).toEqual([]);
  });

  it("never shows another site's picture (an identity provider's URL): initials instead", async () => {
    await t.db
      .update(users)
      .set({ profileImageUrl: 'https://lh3.googleusercontent.com/a/pic' })
      .where(eq(users.id, user.id));
    const html = await page();
    expect(html).not.toContain('googleusercontent');
    expect(html).toContain('action="/settings/avatar/remove"');
  });

  it('refuses a cross-site upload', async () => {
    const form = new FormData();
    form.set('avatar', new Blob([PNG], { type: 'image/png' }), 'x.png');
    const res = await t.app.request('/settings/avatar', {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: 'https://evil.example' },
      body: form,
    });
    expect(res.status).toBe(403);
  });
});
