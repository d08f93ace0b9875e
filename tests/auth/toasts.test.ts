import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { FLASH_COOKIE } from '../../src/http/flash';
import { createItem } from '../../src/knowledge/service';
import { createSignedInUser } from '../helpers/users';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { activate, clearThrottle, PASSWORD, register } from './helpers';

/** The toasts of signing in and registering (spec §8), on plain form posts: a flash after a redirect, in-page on refusal. */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await register(t, 'toaster@example.com');
  await activate(t.db, 'toaster@example.com');
});
afterAll(() => t.close());

const post = (path: string, body: Record<string, string>) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });

/** The page's toast region (what boot.js shows and a reader without JavaScript sees). */
const toastRegion = (html: string) =>
  html.match(/<div class="toast-region" id="toasts"[^>]*>(.*?)<\/div><\/body>/)?.[1];

/** The flash cookie a response sets ("name=value"), or undefined. */
const flashSet = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${FLASH_COOKIE}=`))
    ?.split(';')[0];

const sessionOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('ops_session='))!
    .split(';')[0];

describe('sign-in toasts', () => {
  it('a sign-in leaves "Login Successful" for the next page, shown once', async () => {
    await clearThrottle(t.db);
    const res = await post('/login', { email: 'toaster@example.com', password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const flash = flashSet(res);
    expect(flash).toBe(`${FLASH_COOKIE}=signed_in`);
    const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).toMatch(/Max-Age=60/i);

    const cookie = `${sessionOf(res)}; ${flash}`;
    const home = await t.app.request('/', { headers: { Cookie: cookie } });
    expect(home.status).toBe(200);
    const region = toastRegion(await home.text());
    expect(region).toBe(
      '<div class="toast toast--success" role="status"><div class="toast__title">Login Successful</div></div>',
    );
    // Read once: the page clears it.
    expect(flashSet(home)).toBe(`${FLASH_COOKIE}=`);
    expect(home.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`))).toMatch(/Max-Age=0/i);
    const again = await t.app.request('/', { headers: { Cookie: sessionOf(res) } });
    expect(toastRegion(await again.text())).toBe('');
  });

  it('a wrong password keeps the banner and toasts "Login Failed" with the server message', async () => {
    await clearThrottle(t.db);
    const res = await post('/login', { email: 'toaster@example.com', password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(flashSet(res)).toBeUndefined();
    const html = await res.text();
    expect(html).toContain('<div class="banner banner--error"');
    const region = toastRegion(html);
    expect(region).toContain('<div class="toast toast--error" role="alert">');
    expect(region).toContain('<div class="toast__title">Login Failed</div>');
    expect(region).toContain('<div class="toast__text">Invalid email or password.</div>');
  });

  it('an account awaiting approval: banner and toast both give the reason', async () => {
    await clearThrottle(t.db);
    await register(t, 'waiting@example.com');
    await t.db.update(users).set({ accountStatus: 'pending_approval' }).where(eq(users.email, 'waiting@example.com'));
    const res = await post('/login', { email: 'waiting@example.com', password: PASSWORD });
    expect(res.status).toBe(403);
    const region = toastRegion(await res.text());
    expect(region).toContain('Login Failed');
    expect(region).toContain('Your account is pending admin approval. Please wait for approval.');
  });

  it('an invalid form keeps its field errors and toasts "Login Failed" with the first one', async () => {
    const res = await post('/login', { email: 'not-an-email', password: '' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('Invalid email address');
    const region = toastRegion(html);
    expect(region).toContain('Login Failed');
    expect(region).toContain('<div class="toast__text">Invalid email address</div>');
  });
});

describe('registration toasts', () => {
  const form = (email: string, confirm = PASSWORD) => ({
    firstName: 'Reg',
    lastName: 'Istered',
    email,
    password: PASSWORD,
    confirmPassword: confirm,
  });

  it('registering leaves "Registration Successful" for the Check Your Email page', async () => {
    const res = await post('/register', form('newcomer@example.com'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/register?sent=1');
    const flash = flashSet(res);
    expect(flash).toBe(`${FLASH_COOKIE}=registered`);
    const sent = await t.app.request('/register?sent=1', { headers: { Cookie: flash! } });
    const html = await sent.text();
    expect(html).toContain('Check Your Email');
    expect(toastRegion(html)).toBe(
      '<div class="toast toast--success" role="status"><div class="toast__title">Registration Successful</div>' +
        '<div class="toast__text">Please check your email to verify your account.</div></div>',
    );
  });

  it('a refused registration keeps the field error and toasts "Registration Failed" with it', async () => {
    const res = await post('/register', form('mismatch@example.com', 'another password'));
    expect(res.status).toBe(422);
    expect(flashSet(res)).toBeUndefined();
    const html = await res.text();
    expect(html).toMatch(/class="field__error" role="alert">Passwords don(&#x27;|')t match/);
    const region = toastRegion(html);
    expect(region).toContain('<div class="toast toast--error" role="alert">');
    expect(region).toContain('<div class="toast__title">Registration Failed</div>');
    expect(region).toMatch(/<div class="toast__text">Passwords don(&#x27;|')t match<\/div>/);
  });
});

describe('the flash cookie', () => {
  it('carries only a key of the fixed table: any other value shows nothing and is cleared', async () => {
    for (const value of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'Login%20Successful', 'toString', '__proto__']) {
      const res = await t.app.request('/login', { headers: { Cookie: `${FLASH_COOKIE}=${value}` } });
      const html = await res.text();
      expect(toastRegion(html), value).toBe('');
      expect(html).not.toContain('<script>alert');
      expect(flashSet(res), value).toBe(`${FLASH_COOKIE}=`);
    }
  });

  it('shows on a page that is otherwise kept (a read page) and is not kept with it', async () => {
    const reader = await createSignedInUser(t.db);
    const item = await createItem(t.db, 'knowledge', { title: 'Kept page', content: 'Body.' }, reader.id);
    const found = await t.app.request(`/knowledge-base?doc=${item.id}`, { headers: { Cookie: reader.cookie } });
    const path = found.headers.get('location')!;
    const read = async (cookie: string) => (await t.app.request(path, { headers: { Cookie: cookie } })).text();
    expect(toastRegion(await read(reader.cookie))).toBe(''); // now kept
    const flashed = toastRegion(await read(`${reader.cookie}; ${FLASH_COOKIE}=signed_in`));
    expect(flashed).toContain('Login Successful');
    expect(toastRegion(await read(reader.cookie))).toBe('');
  });
});
