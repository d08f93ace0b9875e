import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';
import { activate, clearThrottle, lastMailTo, PASSWORD, register, tokenFrom, userByEmail } from './helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const html = async (path: string) => {
  const res = await t.app.request(path);
  return { status: res.status, text: await res.text() };
};
const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });

describe('/login banners (spec §8)', () => {
  const cases: [string, string][] = [
    ['error=google_auth_failed', 'Google authentication failed. Please try again.'],
    ['error=pending_approval', 'Your account is pending admin approval. Please wait for approval.'],
    ['error=account_rejected', 'Your account has been rejected. Please contact support.'],
    ['error=not_approved', 'Your account is not approved for login.'],
    ['error=google_not_configured', 'Google authentication is not configured.'],
    ['error=something_else', 'Authentication failed. Please try again.'],
    ['error=google_auth_failed&message=Custom%20words', 'Custom words'],
    ['success=account_created', 'Account created successfully!'],
    ['success=account_created&message=Welcome%20aboard', 'Welcome aboard'],
  ];
  for (const [query, text] of cases) {
    it(`?${query} shows "${text}"`, async () => {
      const page = await html(`/login?${query}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(text);
    });
  }

  it('has the sign-in form, show/hide toggle, Forgot password and Sign up links', async () => {
    const { text } = await html('/login');
    expect(text).toContain('action="/login"');
    expect(text).toContain('data-password-toggle');
    expect(text).toContain('href="/forgot-password"');
    expect(text).toContain('href="/register"');
    expect(text).toContain('class="auth-page"');
  });

  it('shows the Google buttons only when Google is configured (no button, nor divider, otherwise)', async () => {
    for (const path of ['/login', '/register']) {
      const { text } = await html(path);
      expect(text, path).not.toContain('/auth/google');
      expect(text, path).not.toContain('with Google');
      expect(text, path).not.toContain('/auth/oidc');
      expect(text, path).not.toContain('class="divider"');
    }
    const google = await createTestApp({ GOOGLE_CLIENT_ID: 'ops', GOOGLE_CLIENT_SECRET: 'secret' });
    try {
      const login = await (await google.app.request('/login?next=%2Fteam')).text();
      expect(login).toContain('href="/auth/google?next=%2Fteam"');
      expect(login).toContain('Sign in with Google');
      expect(login).toContain('or continue with email');
      expect(login).not.toContain('Sign in with SSO');
      const reg = await (await google.app.request('/register')).text();
      expect(reg).toContain('Sign up with Google');
      expect(reg).toContain('or register with email');
    } finally {
      await google.close();
    }
  });

  it('shows "Sign in with SSO" (and no Google button) when only OIDC_ISSUER is set', async () => {
    const sso = await createTestApp({ OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'ops' });
    try {
      const text = await (await sso.app.request('/login')).text();
      expect(text).toContain('Sign in with SSO');
      expect(text).toContain('href="/auth/oidc"');
      expect(text).not.toContain('with Google');
    } finally {
      await sso.close();
    }
  });

  it('redirects a signed-in user away from /login', async () => {
    const user = await createSignedInUser(t.db);
    const res = await t.app.request('/login', { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
  });
});

describe('/register', () => {
  it('pre-fills the e-mail from ?email=', async () => {
    const { text } = await html('/register?email=invitee%40example.com');
    expect(text).toMatch(/name="email"[^>]*value="invitee@example.com"/);
  });

  it('re-renders with 422 and the messages, keeping the values', async () => {
    const res = await post('/register', {
      firstName: 'Grace',
      lastName: '',
      email: 'grace@example.com',
      password: 'longenough',
      confirmPassword: 'different!',
    });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).toContain('Last name is required');
    expect(text).toContain('Passwords don&#x27;t match');
    expect(text).toMatch(/value="Grace"/);
  });

  it('registers, then shows "Check Your Email" with Go to Login', async () => {
    const res = await post('/register', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/register?sent=1');
    const { text } = await html('/register?sent=1');
    expect(text).toContain('Check Your Email');
    expect(text).toContain('Go to Login');
    expect(await userByEmail(t.db, 'grace@example.com')).toBeTruthy();
  });

  it('answers a taken e-mail like a new one (303 to "Check Your Email"), without saying it is taken', async () => {
    const res = await post('/register', {
      firstName: 'G',
      lastName: 'H',
      email: 'GRACE@example.com',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/register?sent=1');
    expect((await lastMailTo(t.db, 'grace@example.com')).subject).toBe(
      'Someone tried to register with your email address on Ops Hub',
    );
  });

  it('shows the limit on the page (429, Retry-After) when an address registers too often', async () => {
    const form = {
      firstName: 'G',
      lastName: 'H',
      email: 'often@example.com',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    };
    for (let i = 0; i < 5; i++) expect((await post('/register', form)).status).toBe(303);
    const res = await post('/register', form);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    const text = await res.text();
    expect(text).toContain('Too many attempts. Please try again later.');
    expect(text).toMatch(/value="often@example.com"/);
    await clearThrottle(t.db);
  });
});

describe('/forgot-password limits', () => {
  it('shows the limit on the page (429) after 3 requests for one address', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/forgot-password', { email: 'grace@example.com' })).status).toBe(303);
    const res = await post('/forgot-password', { email: 'grace@example.com' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await res.text()).toContain('Too many attempts. Please try again later.');
    await clearThrottle(t.db);
  });
});

describe('/verify-email states', () => {
  it('missing token: "Invalid Link"', async () => {
    const { text } = await html('/verify-email');
    expect(text).toContain('Invalid Link');
    expect(text).toContain('This verification link is invalid or incomplete.');
  });

  it('with a token: "Verifying Email", which loads the result (htmx) or links to it (no JS)', async () => {
    const { text } = await html('/verify-email?token=abc');
    expect(text).toContain('Verifying Email');
    expect(text).toContain('hx-get="/verify-email/confirm?token=abc"');
    expect(text).toContain('href="/verify-email/confirm?token=abc"');
  });

  it('bad token: "Verification Failed" with the server message', async () => {
    const res = await t.app.request('/verify-email/confirm?token=abc');
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain('Verification Failed');
    expect(text).toContain('This verification link is invalid or has expired.');
    const fragment = await t.app.request('/verify-email/confirm?token=abc', { headers: { 'HX-Request': 'true' } });
    expect(fragment.status).toBe(200);
    const part = await fragment.text();
    expect(part).toContain('Verification Failed');
    expect(part).not.toContain('<html');
  });

  it('pending approval: "Email Verified", "Awaiting admin approval", View Status', async () => {
    const token = tokenFrom((await lastMailTo(t.db, 'grace@example.com', 'verify:')).text, '/verify-email');
    const { text } = await html(`/verify-email/confirm?token=${token}`);
    expect(text).toContain('Email Verified');
    expect(text).toContain('Awaiting admin approval');
    expect(text).toContain('href="/approval-pending"');
  });

  it('otherwise: "Verification Complete" and Continue to Login', async () => {
    const fresh = await createTestApp();
    try {
      await register(fresh, 'boss@example.com');
      const token = tokenFrom((await lastMailTo(fresh.db, 'boss@example.com')).text, '/verify-email');
      const text = await (await fresh.app.request(`/verify-email/confirm?token=${token}`)).text();
      expect(text).toContain('Verification Complete');
      expect(text).toContain('Continue to Login');
    } finally {
      await fresh.close();
    }
  });
});

describe('/approval-pending', () => {
  it('shows the timeline, the note and both buttons', async () => {
    const { text } = await html('/approval-pending');
    for (const s of [
      'Email Verified',
      'Pending Approval',
      'Account Active',
      '1-2 business days',
      'Try Login Again',
      'Back to Home',
      'href="/login"',
    ]) {
      expect(text).toContain(s);
    }
  });
});

describe('the /login form without JavaScript', () => {
  it('re-renders with 422 for invalid input', async () => {
    const res = await post('/login', { email: 'nope', password: '' });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).toContain('Invalid email address');
    expect(text).toContain('Password is required');
  });

  it('shows "Invalid email or password." for a wrong password', async () => {
    const res = await post('/login', { email: 'grace@example.com', password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Invalid email or password.');
  });

  it('explains a pending account', async () => {
    const res = await post('/login', { email: 'grace@example.com', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Your account is pending admin approval. Please wait for approval.');
  });

  it('signs in and redirects (303) with the session cookie', async () => {
    await activate(t.db, 'grace@example.com');
    const res = await post('/login', { email: 'grace@example.com', password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toMatch(/ops_session=.+HttpOnly/i);
  });

  it('refuses a cross-site form POST', async () => {
    const res = await post(
      '/login',
      { email: 'grace@example.com', password: PASSWORD },
      { Origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
  });
});
