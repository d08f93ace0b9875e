import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPreferences } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ HEALTH_CHECK_CRON: '*/5 * * * *', HEALTH_REPORT_CRON: 'off', JOBS: 'inline' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

/** The table row of one job, as text without tags. */
function rowText(html: string, job: string): string {
  const start = html.indexOf(`data-job="${job}"`);
  expect(start).toBeGreaterThan(-1);
  return html
    .slice(start, html.indexOf('</tr>', start))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('/admin/jobs', () => {
  it('sends signed-out visitors to sign in and answers 403 to non-admins', async () => {
    const out = await t.app.request('/admin/jobs');
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/login?next=%2Fadmin%2Fjobs');
    const res = await t.app.request('/admin/jobs', { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('You do not have permission to access this page.');
    const post = await t.app.request('/admin/jobs/health-report/run', jsonRequest('POST', undefined, user.cookie));
    expect(post.status).toBe(403);
  });

  it('lists every job with its schedule, last run, result and next run', async () => {
    const res = await t.app.request('/admin/jobs', { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Jobs run inside this web process');
    const health = rowText(html, 'health-checks');
    expect(health).toContain('Health checks');
    expect(health).toContain('Every 5 minutes');
    expect(health).toContain('*/5 * * * *');
    expect(health).toContain('Never');
    expect(health).not.toContain('Not scheduled');
    const report = rowText(html, 'health-report');
    expect(report).toContain('Off');
    expect(report).toContain('Not scheduled');
    expect(rowText(html, 'mail-delivery')).toContain('* * * * *');
    expect(rowText(html, 'token-expiry')).toContain('Hourly at :17 17 * * * *');
    expect(html).toContain('No failed e-mail');
  });

  it('"Run now" runs the job, records it and shows the result (form post and htmx)', async () => {
    const res = await t.app.request('/admin/jobs/token-expiry/run', jsonRequest('POST', undefined, admin.cookie));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/jobs?ran=token-expiry&status=ok');
    const html = await (
      await t.app.request(res.headers.get('location')!, { headers: { Cookie: admin.cookie } })
    ).text();
    expect(html).toContain('Token and account expiry finished.');
    const row = rowText(html, 'token-expiry');
    expect(row).toContain('OK');
    expect(row).toContain('Cleared 0 verification and 0 reset tokens');
    expect(row).toMatch(/\d+ ms/);
    expect(row).not.toContain('Never');

    const fragment = await t.app.request('/admin/jobs/health-report/run', {
      ...jsonRequest('POST', undefined, admin.cookie),
      headers: {
        ...(jsonRequest('POST', undefined, admin.cookie).headers as Record<string, string>),
        'HX-Request': 'true',
      },
    });
    expect(fragment.status).toBe(200);
    expect(JSON.parse(fragment.headers.get('HX-Trigger')!)).toMatchObject({
      showToast: { title: 'Health report e-mail finished.', variant: 'success' },
    });
    const body = await fragment.text();
    expect(body.startsWith('<div class="table-wrap" id="jobs-table">')).toBe(true);
    expect(rowText(body, 'health-report')).toContain('Queued the health report (0 servers) for 1 recipients.');
  });

  it('refuses an unknown job name', async () => {
    const res = await t.app.request('/admin/jobs/format-disks/run', jsonRequest('POST', undefined, admin.cookie));
    expect(res.status).toBe(400);
  });
});

describe("/admin/jobs times are in one timezone, the reader's (issue 20)", () => {
  let app: TestContext;
  let kolkata: TestUser;
  const serverTz = process.env.TZ;
  beforeAll(async () => {
    process.env.TZ = 'UTC'; // node-cron runs schedules on this process's clock
    app = await createTestApp({ HEALTH_REPORT_CRON: '0 7 * * *', TOKEN_EXPIRY_CRON: '17 * * * *', JOBS: 'inline' });
    kolkata = await createSignedInUser(app.db, { role: 'admin' });
    // UTC+5:30 all year (no daylight saving): 07:00 UTC is 12:30 there, minute :17 is :47.
    await app.db.insert(userPreferences).values({ userId: kolkata.id, timezone: 'Asia/Kolkata' });
  });
  afterAll(async () => {
    if (serverTz === undefined) delete process.env.TZ;
    else process.env.TZ = serverTz;
    await app?.close();
  });

  it("a daily or hourly schedule reads in the user's timezone, like the next run, and the page says which", async () => {
    const html = await (await app.app.request('/admin/jobs', { headers: { Cookie: kolkata.cookie } })).text();
    const report = rowText(html, 'health-report');
    expect(report).toContain('Daily at 12:30');
    expect(report).not.toContain('Daily at 07:00');
    expect(report).toMatch(/\d{4}, 12:30\s?pm/); // the next run, in Asia/Kolkata too
    const expiry = rowText(html, 'token-expiry');
    expect(expiry).toContain('Hourly at :47');
    expect(expiry).toMatch(/:47\s?[ap]m/);
    expect(html).toContain(
      'Schedules and next runs are in your timezone, Asia/Kolkata. The cron expressions are in the server timezone (UTC).',
    );
  });

  it('"Run now" answers htmx with the table in the same timezone', async () => {
    const init = jsonRequest('POST', undefined, kolkata.cookie);
    const res = await app.app.request('/admin/jobs/token-expiry/run', {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'HX-Request': 'true' },
    });
    const body = await res.text();
    expect(rowText(body, 'health-report')).toContain('Daily at 12:30');
    expect(body).toContain('your timezone, Asia/Kolkata');
  });
});
