import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, serverDocuments, servers, userPreferences } from '../../src/db/schema';
import { sendHealthReports } from '../../src/reports/send';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import { readersOf, seedAccessWorld, strangersOf, type AccessWorld } from './fixture';

/** Issue 21, "No leak anywhere": the runbooks the health report page and its e-mail list, per reader. */

let t: TestContext;
let w: AccessWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
  // Offline for three hours: the report lists it under long outages, with its runbooks.
  const [down] = await t.db
    .insert(servers)
    .values({
      name: 'vault-01',
      environment: 'production',
      status: 'offline',
      statusChangedAt: new Date(Date.now() - 3 * 3_600_000),
    })
    .returning({ id: servers.id });
  await t.db.insert(serverDocuments).values([
    { serverId: down.id, documentId: w.secret.id, documentType: 'runbook' },
    { serverId: down.id, documentId: w.open.id, documentType: 'runbook' },
  ]);
  const optIn = [w.owner, w.shared, ...Object.values(w.strangers)];
  await t.db.insert(userPreferences).values(optIn.map((u) => ({ userId: u.id, healthReports: true })));
});
afterAll(() => t.close());

const reportPage = async (u: TestUser) =>
  (await t.app.request('/reports/health', { headers: { Cookie: u.cookie } })).text();

describe('health report: a restricted runbook', () => {
  it('is not listed on the page for those who may not read it', async () => {
    for (const [who, u] of strangersOf(w)) {
      const html = await reportPage(u);
      expect(html, who).toContain('vault-01');
      expect(html, who).toContain(w.open.title);
      expect(html, who).not.toContain(w.secret.title);
      expect(html, who).not.toContain(w.secret.id);
    }
  });

  it('is listed on the page for the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      const html = await reportPage(u);
      expect(html, who).toContain(w.open.title);
      expect(html, who).toContain(w.secret.title);
    }
  });

  it("is in each recipient's e-mail only when that recipient may read it", async () => {
    const sent = await sendHealthReports(t.db, { appUrl: TEST_ORIGIN });
    expect(sent.recipients).toBe(7);
    const mailTo = async (u: TestUser) => {
      const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, u.email));
      expect(mail, u.email).toBeDefined();
      return `${mail.subject}\n${mail.text}\n${mail.html}`;
    };
    for (const [who, u] of strangersOf(w)) {
      const mail = await mailTo(u);
      expect(mail, who).toContain(w.open.title);
      expect(mail, who).not.toContain(w.secret.title);
      expect(mail, who).not.toContain(w.secret.id);
    }
    for (const [who, u] of readersOf(w)) expect(await mailTo(u), who).toContain(w.secret.title);
  });
});
