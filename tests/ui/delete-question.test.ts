import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/knowledge/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let admin: TestUser;
let kbId: string;
let docId: string;

const page = async (path: string, who: TestUser, headers: Record<string, string> = {}) =>
  (await t.app.request(path, { headers: { Cookie: who.cookie, ...headers } })).text();
const dialog = (path: string, who: TestUser) =>
  page(path, who, { 'HX-Request': 'true', 'HX-Target': 'confirm-delete', 'HX-Current-URL': `${TEST_ORIGIN}/` });

const cannotUndo = (title: string) =>
  `Are you sure you want to delete &quot;${title}&quot;? This action cannot be undone.`;
const restorable = (title: string) =>
  `Are you sure you want to delete &quot;${title}&quot;? Admins can restore it from Deleted items.`;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
  admin = await createSignedInUser(t.db, { role: 'admin' });
  kbId = (await createItem(t.db, 'knowledge', { title: 'Old VPN notes', content: 'x', category: 'Net' }, user.id)).id;
  docId = (await createItem(t.db, 'documents', { title: 'Rack plan', content: 'y' }, user.id)).id;
});
afterAll(() => t.close());

describe('the delete question', () => {
  it('keeps the spec text for those who cannot restore; those who can are told an admin can restore it', async () => {
    for (const [path, title] of [
      [`/knowledge-base/${kbId}/delete`, 'Old VPN notes'],
      [`/documents/${docId}/delete`, 'Rack plan'],
    ]) {
      for (const html of [await dialog(path, user), await page(path, user)]) {
        expect(html).toContain(cannotUndo(title));
        expect(html).not.toContain('Admins can restore');
      }
      for (const html of [await dialog(path, admin), await page(path, admin)]) {
        expect(html).toContain(restorable(title));
        expect(html).not.toContain('cannot be undone');
      }
    }
  });

  it("hands the category view's preview whether the reader can restore", async () => {
    const props = (html: string) => html.match(/data-name="CategoryView"[^>]*data-props="([^"]*)"/)?.[1] ?? '';
    expect(props(await page('/knowledge-base?view=category', admin))).toContain('&quot;canRestore&quot;:true');
    expect(props(await page('/knowledge-base?view=category', user))).toContain('&quot;canRestore&quot;:false');
  });
});
