import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments, servers, userPreferences } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import type { Item } from '../../src/knowledge/schemas';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** The print view (/knowledge-base/{id}/print, /documents/{id}/print) and the read and list pages' export links. */

let t: TestContext;
let owner: TestUser;
let admin: TestUser;
let runbook: Item;

const CONTENT = [
  'Intro paragraph.',
  '## Step 1: Drain',
  'Drain the pool.',
  '```sh\nsudo systemctl restart strongswan\n```',
  'Write `<img loading="lazy">` to load later.',
  '## Step 2: Verify',
  '| host | port |\n|---|---|\n| vpn-01 | 500 |',
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
].join('\n\n');

const page = async (who: TestUser | null, path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { ...(who ? { Cookie: who.cookie } : {}), ...headers } });
const html = async (who: TestUser, path: string) => {
  const res = await page(who, path);
  expect(res.status, path).toBe(200);
  return res.text();
};
/** The rendered content of a page: the inside of its `.prose` element (nothing after it nests a div). */
const proseOf = (text: string) =>
  /<div class="prose[^"]*">([\s\S]*?)<\/div>\s*(?:<footer|<section|<nav|<\/div>)/.exec(text)?.[1];

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  await t.db.insert(userPreferences).values({ userId: owner.id, timezone: 'UTC' });
  runbook = await createItem(
    t.db,
    'knowledge',
    {
      title: 'Restart VPN: the night runbook',
      content: CONTENT,
      category: 'Network',
      templateType: 'work_instruction',
      reviewIntervalDays: 30,
    },
    owner.id,
  );
  const [server] = await t.db
    .insert(servers)
    .values({ name: 'vpn-01', hostname: 'vpn-01.example.net', environment: 'production', status: 'online' })
    .returning();
  await t.db.insert(serverDocuments).values({ serverId: server.id, documentId: runbook.id, documentType: 'runbook' });
});
afterAll(() => t.close());

describe('the print view', () => {
  it('is a page of its own: title block (version, owner, review date, linked servers), no app chrome, no script', async () => {
    const text = await html(owner, `/knowledge-base/${runbook.id}/print`);
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).toContain('<h1 class="print__title">Restart VPN: the night runbook</h1>');
    expect(text).toContain('<dt>Version</dt><dd>v1</dd>');
    expect(text).toContain('<dt>Owner</dt><dd>Olga Owner</dd>');
    const due = new Date(runbook.reviewDueAt!);
    const dueText = due.toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(text).toContain(`<dt>Review date</dt><dd>${dueText}</dd>`);
    expect(text).toMatch(
      /<dt>Linked servers<\/dt><dd><ul class="print__servers"><li[^>]*>vpn-01 \(vpn-01\.example\.net\) · online<\/li>/,
    );
    expect(text).toContain('<p class="print__kicker">Work Instruction</p>');
    // No sidebar, no header, no script of any kind.
    expect(text).not.toMatch(/class="[^"]*\b(sidebar|page-header|shell)\b/);
    expect(text).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
    expect(text).toContain('@media print');
    expect(text).toContain('.print__body :is(h1,h2)~:is(h1,h2){break-before:page}');
    expect(text).toContain('.print__body img{max-width:100%');
  });

  it('renders the content exactly as the read page does (sanitised), images loaded at once', async () => {
    const printed = proseOf(await html(owner, `/knowledge-base/${runbook.id}/print`));
    const read = proseOf(await html(owner, `/knowledge-base/${runbook.id}`));
    expect(printed).toBeDefined();
    expect(printed).toContain('<h2 id="step-1-drain">Step 1: Drain');
    expect(printed).toContain('<table>');
    expect(printed).not.toMatch(/<img[^>]* loading="lazy"/);
    // Only image tags lose it: the same text in code stays as written.
    expect(printed).toContain('<code>&lt;img loading="lazy"&gt;</code>');
    expect(printed).toBe(read!.replace(/<img\b[^>]*>/g, (tag) => tag.replace(' loading="lazy"', '')));
  });

  it('sends a policy that allows no script, no connection and no form', async () => {
    const res = await page(owner, `/knowledge-base/${runbook.id}/print`);
    expect(res.headers.get('Content-Security-Policy')).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('exists for documents, 404s like the read page, and sends a signed-out visitor to sign in', async () => {
    const doc = await createItem(
      t.db,
      'documents',
      { title: 'Backup policy', content: 'Keep **three** copies.' },
      null,
    );
    const text = await html(owner, `/documents/${doc.id}/print`);
    expect(text).toContain('<h1 class="print__title">Backup policy</h1>');
    expect(text).toContain('<dt>Owner</dt><dd>Unknown</dd>');
    expect(text).toContain('<dt>Linked servers</dt><dd>None</dd>');
    expect((await page(owner, `/knowledge-base/${doc.id}/print`)).status).toBe(404);
    expect((await page(owner, '/knowledge-base/5f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d/print')).status).toBe(404);
    const out = await page(null, `/knowledge-base/${runbook.id}/print`);
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe(
      `/login?next=${encodeURIComponent(`/knowledge-base/${runbook.id}/print`)}`,
    );
  });

  it('wins over the read page: an item titled "Print" keeps its read page at /{id}', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Print', content: 'Toner.' }, owner.id);
    const read = await page(owner, `/knowledge-base/${item.id}/print`);
    expect(await read.text()).toContain('<h1 class="print__title">Print</h1>');
    const own = await page(owner, `/knowledge-base/${item.id}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('link')).toBe(`</knowledge-base/${item.id}>; rel="canonical"`);
  });
});

describe('links to it', () => {
  it('the read page has Download markdown and Print (plain links)', async () => {
    const text = await html(owner, `/knowledge-base/${runbook.id}`);
    expect(text).toContain(
      `<a class="btn btn--secondary btn--sm" href="/api/knowledge-base/${runbook.id}/export.md" download="">Download markdown</a>`,
    );
    expect(text).toContain(
      `<a class="btn btn--secondary btn--sm" href="/knowledge-base/${runbook.id}/print">Print</a>`,
    );
  });

  it('the list page has Export for admins only, carrying the current filters (also in the htmx fragment)', async () => {
    const exportLink = (q: string) =>
      `<a class="btn btn--ghost btn--sm" href="/api/export?${q.replaceAll('&', '&amp;')}" download="">Export</a>`;
    expect(await html(admin, '/knowledge-base')).toContain(exportLink('space=knowledge'));
    expect(await html(admin, '/knowledge-base?q=vpn&type=work-instruction&category=Network&view=list')).toContain(
      exportLink('space=knowledge&q=vpn&type=work-instruction&category=Network'),
    );
    const fragment = await page(admin, '/knowledge-base?category=Network', {
      'HX-Request': 'true',
      'HX-Target': 'kb-results',
    });
    expect(await fragment.text()).toContain(exportLink('space=knowledge&category=Network'));
    expect(await html(admin, '/documents?q=backup')).toContain(exportLink('space=documents&q=backup'));
    expect(await html(owner, '/knowledge-base')).not.toContain('/api/export');
  });
});
