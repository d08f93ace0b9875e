import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentReviewFlags, documents, serverDocuments, servers, userPreferences } from '../../src/db/schema';
import { createItem, deleteItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { startMailbox, type Mailbox } from '../helpers/mailbox';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { jobsConfig, testScheduler, waitFor } from '../jobs/support';

// The health report's living-documentation sections (issue 23): servers down and their runbooks, servers without a
// runbook, documents flagged by a server change and overdue reviews; each recipient's copy covers their team and
// lists only the documents they may read.

const DAY = 86_400_000;
const APP = 'http://localhost:3000';
let t: TestContext;
let mailbox: Mailbox;
let admin: TestUser;
let bob: TestUser;
let alice: TestUser;
const sv: Record<string, string> = {};
const doc: Record<string, string> = {};

async function seedServers() {
  const rows = await t.db
    .insert(servers)
    .values([
      {
        name: 'web1',
        environment: 'production',
        status: 'offline',
        teamOwner: 'Platform',
        statusChangedAt: new Date(Date.now() - 3 * 3_600_000),
      },
      {
        name: 'db1',
        environment: 'production',
        status: 'offline',
        teamOwner: 'Data',
        statusChangedAt: new Date(Date.now() - 600_000),
      },
      { name: 'lone1', environment: 'staging', status: 'online', teamOwner: 'Platform' },
      { name: 'lone2', environment: 'staging', status: 'online', teamOwner: 'Data' },
      // 30 more servers without a runbook: the list shows the first ones and counts the rest.
      ...Array.from({ length: 30 }, (_, i) => ({
        name: `spare-${String(i).padStart(2, '0')}`,
        environment: 'development' as const,
        status: 'online' as const,
        teamOwner: 'Lab',
      })),
    ])
    .returning({ id: servers.id, name: servers.name });
  for (const r of rows) sv[r.name] = r.id;
}

async function seedDocuments() {
  const make = async (space: 'knowledge' | 'documents', title: string) =>
    (await createItem(t.db, space, { title, content: `${title}.` }, admin.id)).id;
  doc.web = await make('knowledge', 'Web runbook');
  doc.secret = await make('knowledge', 'Web secrets');
  doc.db = await make('documents', 'DB runbook');
  doc.gone = await make('knowledge', 'Old lone2 notes');
  await deleteItem(t.db, 'knowledge', doc.gone, admin.id);
  // Only its owner (the admin) and admins may read "Web secrets".
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, doc.secret));
  await t.db.insert(serverDocuments).values([
    { serverId: sv.web1, documentId: doc.web },
    { serverId: sv.web1, documentId: doc.secret },
    { serverId: sv.db1, documentId: doc.db },
    { serverId: sv.lone2, documentId: doc.gone },
  ]);
  const due = (id: string, daysAgo: number) =>
    t.db
      .update(documents)
      .set({ reviewDueAt: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(documents.id, id));
  await due(doc.secret, 20);
  await due(doc.web, 10);
  await due(doc.db, 3);
  const at = (h: number) => new Date(Date.now() - h * 3_600_000);
  await t.db.insert(documentReviewFlags).values([
    {
      documentId: doc.web,
      serverId: sv.web1,
      serverName: 'web1',
      field: 'ipAddress',
      fromValue: '127.0.0.1',
      toValue: '127.0.0.2',
      at: at(2),
      byName: 'Ada',
    },
    {
      documentId: doc.secret,
      serverId: sv.web1,
      serverName: 'web1',
      field: 'hostname',
      fromValue: 'web1.old.example.com',
      toValue: 'web1.corp.example.com',
      at: at(1),
      byName: 'Ada',
    },
    {
      documentId: doc.db,
      serverId: sv.db1,
      serverName: 'db1',
      field: 'name',
      fromValue: 'db0',
      toValue: 'db1',
      at: at(3),
      byName: 'an agent',
    },
  ]);
}

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', email: 'admin@example.com', firstName: 'Ada' });
  bob = await createSignedInUser(t.db, { email: 'bob@example.com', firstName: 'Bob' });
  alice = await createSignedInUser(t.db, { email: 'alice@example.com', firstName: 'Alice' });
  await t.db.insert(userPreferences).values([
    { userId: bob.id, healthReports: true, timezone: 'UTC' },
    { userId: alice.id, healthReports: true, timezone: 'UTC', reportTeam: 'Platform' },
  ]);
  await seedServers();
  await seedDocuments();
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

/** The decoded body of a received message (quoted-printable text and HTML parts, as nodemailer sends them). */
function decoded(raw: string): string {
  const body = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const hex = body[i] === '=' ? body.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(body[i]));
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

/** The text between a heading and the next blank line (a section of the plain-text part). */
function textSection(mail: string, title: string): string {
  const start = mail.indexOf(`${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  return mail.slice(start, mail.indexOf('\n\n', start));
}

describe('health report e-mail through a real SMTP receiver', () => {
  const mails: Record<string, string> = {};
  beforeAll(async () => {
    const config = jobsConfig({ SMTP_URL: mailbox.url, MAIL_FROM: 'Ops Hub <ops@example.com>' });
    const scheduler = testScheduler(t.database, { config });
    expect(await scheduler.runNow('health-report')).toMatchObject({ status: 'ok' });
    expect(await scheduler.runNow('mail-delivery')).toMatchObject({ status: 'ok' });
    await waitFor(() => mailbox.messages.length >= 3, 10_000, 'three report e-mails');
    for (const m of mailbox.messages) mails[m.to[0]] = decoded(m.raw);
    if (process.env.SHOW_MAIL) console.log(mails['admin@example.com']);
  });

  it('lists each down server with its runbooks, as absolute links', () => {
    const m = mails['admin@example.com'];
    expect(m).toMatch(/Subject: Ops Hub health report: 34 servers/);
    const down = textSection(m, 'Servers down and their runbooks');
    expect(down).toMatch(/web1 +production +Platform +.+ +Web runbook, Web secrets/);
    expect(down).toMatch(/db1 +production +Data +.+ +DB runbook/);
    expect(down.indexOf('web1')).toBeLessThan(down.indexOf('db1'));
    expect(down).toContain(`web1: ${APP}/infrastructure/${sv.web1}`);
    expect(down).toContain(`Web runbook: ${APP}/knowledge-base/${doc.web}/web-runbook`);
    expect(m).toContain(`<a href="${APP}/documents/${doc.db}/db-runbook">DB runbook</a>`);
  });

  it('lists the documents a server change flagged (old → new, when, by whom) and the overdue reviews, oldest first', () => {
    const m = mails['admin@example.com'];
    const flagged = textSection(m, 'Documents flagged by a server change');
    expect(flagged).toMatch(/Web secrets +web1 +Hostname: web1\.old\.example\.com → web1\.corp\.example\.com +.+ +Ada/);
    expect(flagged).toMatch(/Web runbook +web1 +IP address: 127\.0\.0\.1 → 127\.0\.0\.2 +.+ +Ada/);
    expect(flagged).toMatch(/DB runbook +db1 +Name: db0 → db1 +.+ +an agent/);
    expect(flagged).toContain(`Web runbook: ${APP}/knowledge-base/${doc.web}/web-runbook`);
    const overdue = textSection(m, 'Overdue reviews');
    expect(overdue).toMatch(
      /Web secrets +Knowledge Base .*\n.*Web runbook +Knowledge Base .*\n.*DB runbook +Documents /,
    );
    expect(m).toContain(`<a href="${APP}/knowledge-base/${doc.secret}/web-secrets">Web secrets</a>`);
  });

  it('lists servers without a live runbook, capped, with how many more there are', () => {
    const m = mails['admin@example.com'];
    const without = textSection(m, 'Servers without a runbook');
    expect(without).toMatch(/lone1 +staging +online +Platform/);
    expect(without).toMatch(/lone2 +staging +online +Data/); // its only document is deleted
    expect(without).not.toMatch(/^(web1|db1) /m); // a row of its own (ids in the links may hold "db1")
    expect(without).toContain('spare-22');
    expect(without).not.toContain('spare-23');
    expect(without).toContain('… and 7 more servers.');
    expect(m).toContain('<p>… and 7 more servers.</p>');
    // Each row offers to write the missing runbook (an absolute link, linked to the server on save).
    expect(without).toContain(`Write a runbook: ${APP}/knowledge-base/new?type=work-instruction&server=${sv.lone1}`);
  });

  it('leaves out a restricted document the recipient may not read, in every section', () => {
    const m = mails['bob@example.com'];
    expect(m).toContain('Hello Bob,');
    expect(m).toContain('Web runbook');
    expect(m).not.toContain('Web secrets');
    expect(m).not.toContain(doc.secret);
    expect(textSection(m, 'Documents flagged by a server change')).toMatch(/IP address: 127\.0\.0\.1 → 127\.0\.0\.2/);
  });

  it("covers only the recipient's team: its servers and the documents linked to them", () => {
    const m = mails['alice@example.com'];
    expect(m).toMatch(/Subject: Ops Hub health report \(Platform\): 2 servers: 1 online, 1 offline/);
    expect(m).toContain('Covers the servers owned by Platform and the documents linked to them.');
    expect(textSection(m, 'Servers down and their runbooks')).not.toMatch(/^db1 /m);
    expect(textSection(m, 'Documents flagged by a server change')).not.toContain('DB runbook');
    expect(textSection(m, 'Overdue reviews')).toMatch(/Web runbook/);
    expect(textSection(m, 'Overdue reviews')).not.toContain('DB runbook');
    const without = textSection(m, 'Servers without a runbook');
    expect(without).toContain('lone1');
    expect(without).not.toMatch(/lone2|spare-|more servers/);
  });
});

describe('/reports/health', () => {
  const page = async (user: TestUser, query = '') => {
    const res = await t.app.request(`/reports/health${query}`, { headers: { Cookie: user.cookie } });
    return { status: res.status, html: await res.text() };
  };
  const section = (html: string, id: string) => {
    const start = html.indexOf(`id="report-${id}"`);
    expect(start, id).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf('</section>', start));
  };

  it('shows the new sections with links into the app, without what the reader may not read', async () => {
    const { html } = await page(bob);
    expect(section(html, 'down')).toContain(`<a href="/knowledge-base/${doc.web}/web-runbook">Web runbook</a>`);
    expect(section(html, 'down')).toContain(`<a href="/infrastructure/${sv.db1}">db1</a>`);
    const flagged = section(html, 'flagged');
    expect(flagged).toContain('IP address: 127.0.0.1 → 127.0.0.2');
    expect(flagged).toContain(`<a href="/documents/${doc.db}/db-runbook">DB runbook</a>`);
    expect(html).not.toContain('Web secrets');
    expect(section(html, 'overdue')).toMatch(/Web runbook.*DB runbook/s);
    expect(section(html, 'without-runbook')).toContain(`<a href="/infrastructure/${sv.lone1}">lone1</a>`);
    expect(section(html, 'without-runbook')).toContain('… and 7 more servers.');
    expect((await page(admin)).html).toContain('Hostname: web1.old.example.com → web1.corp.example.com');
  });

  it("covers the reader's team by default, another team with ?team=, every server with ?team= empty", async () => {
    const mine = (await page(alice)).html;
    expect(mine).toContain('Covers the servers owned by Platform');
    expect(mine).toMatch(/<option value="Platform" selected="">Servers owned by Platform<\/option>/);
    expect(section(mine, 'down')).not.toContain('>db1<');
    expect(section(mine, 'flagged')).not.toContain('DB runbook');
    expect(section(mine, 'without-runbook')).not.toContain('spare-');

    const data = (await page(alice, '?team=Data')).html;
    expect(section(data, 'down')).toContain('>db1<');
    expect(section(data, 'down')).not.toContain('web1');
    expect(section(data, 'overdue')).toContain('DB runbook');
    expect(section(data, 'overdue')).not.toContain('Web runbook');

    const all = (await page(alice, '?team=')).html;
    expect(all).toContain('Covers every server.');
    expect(section(all, 'down')).toMatch(/web1.*db1/s);

    const unknown = await page(alice, '?team=Nobody');
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('Choose a team from the list');
  });

  it("keeps a deleted server's flags in its team's report, though its links went with it", async () => {
    const api = async (method: string, path: string, body?: unknown) =>
      (await t.app.request(path, jsonRequest(method, body, admin.cookie))).json();
    const gone = await api('POST', '/api/servers', { name: 'gone1', teamOwner: 'Platform', status: 'maintenance' });
    const runbook = await api('POST', '/api/knowledge-base', { title: 'Gone runbook', content: 'x' });
    await api('POST', `/api/servers/${gone.id}/documents`, { documentId: runbook.id });
    await api('DELETE', `/api/servers/${gone.id}`);
    expect(section((await page(alice, '?team=Platform')).html, 'flagged')).toContain('Gone runbook');
    expect(section((await page(alice, '?team=Data')).html, 'flagged')).not.toContain('Gone runbook');
  });
});

describe('Settings: Health report covers', () => {
  const post = (form: Record<string, string>) =>
    t.app.request('/settings/notifications', {
      method: 'POST',
      headers: { Cookie: bob.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const saved = async () =>
    (await t.db.select().from(userPreferences).where(eq(userPreferences.userId, bob.id)))[0].reportTeam;

  it('offers every server and each team that owns servers, and saves the choice', async () => {
    const html = await (await t.app.request('/settings', { headers: { Cookie: bob.cookie } })).text();
    expect(html).toContain('Health report covers');
    expect(html).toMatch(
      /<option value="" selected="">All servers<\/option><option value="Data">Servers owned by Data<\/option><option value="Lab">Servers owned by Lab<\/option><option value="Platform">/,
    );
    const res = await post({ healthReports: 'on', reportTeam: 'Data' });
    expect(res.headers.get('location')).toBe('/settings?updated=preferences');
    expect(await saved()).toBe('Data');
    await post({ healthReports: 'on', reportTeam: '' });
    expect(await saved()).toBeNull();
  });

  it('refuses a team that owns no server (422, the message at the field) and keeps the saved one', async () => {
    await post({ healthReports: 'on', reportTeam: 'Platform' });
    const res = await post({ healthReports: 'on', reportTeam: 'Nobody' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Choose a team from the list: no server is owned by that team.');
    expect(await saved()).toBe('Platform');
  });
});
