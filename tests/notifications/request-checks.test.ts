import { createServer, type AddressInfo } from 'node:net';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let ada: TestUser;
let closedPort: number;

/** A loopback port that was opened and closed again: probes to it are refused at once. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.7', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

const statusMails = () => t.db.select().from(mailOutbox).where(like(mailOutbox.dedupeKey, 'server-status:%'));
const addServer = async (name: string) =>
  (
    await t.db
      .insert(servers)
      .values({ name, ipAddress: '127.0.0.7', monitorPort: closedPort, status: 'online', environment: 'production' })
      .returning()
  )[0];
const form = (cookie: string) => ({
  method: 'POST',
  headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: '',
});

beforeAll(async () => {
  // About who hears of a change, not when a server goes offline: one failed check is enough.
  t = await createTestApp({ HEALTH_CHECK_FAILURES: '1' });
  ada = await createSignedInUser(t.db, { email: 'ada@example.com' });
  closedPort = await refusedPort();
});
afterAll(() => t.close());

describe('checks a person starts notify like the scheduled round', () => {
  it("a server's Check now (API) that finds it offline e-mails the opted-in users", async () => {
    const s = await addServer('api-checked');
    const res = await t.app.request(`/api/servers/${s.id}/health-check`, jsonRequest('POST', undefined, ada.cookie));
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('offline');
    const mails = await statusMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'ada@example.com' });
    expect(mails[0].text).toContain('api-checked');
  });

  it("the detail page's Check now and the dashboard's Run Health Check do too; an unchanged server sends nothing", async () => {
    const s = await addServer('page-checked');
    expect((await t.app.request(`/infrastructure/${s.id}/health-check`, form(ada.cookie))).status).toBe(303);
    expect((await statusMails()).some((m) => m.text.includes('page-checked'))).toBe(true);

    await addServer('dashboard-checked');
    const before = (await statusMails()).length;
    expect((await t.app.request('/dashboard/health-check', form(ada.cookie))).status).toBe(303);
    const after = await statusMails();
    expect(after).toHaveLength(before + 1);
    expect(after.some((m) => m.text.includes('dashboard-checked'))).toBe(true);

    // Offline already: the next checks change nothing and notify nobody.
    expect(
      (await t.app.request(`/api/servers/${s.id}/health-check`, jsonRequest('POST', undefined, ada.cookie))).status,
    ).toBe(200);
    expect((await t.app.request('/dashboard/health-check', form(ada.cookie))).status).toBe(303);
    expect(await statusMails()).toHaveLength(before + 1);
  });
});
