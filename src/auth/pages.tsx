import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from './policy';
import { AppError } from '../http/errors';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { setSessionCookie } from '../http/session';
import { clientIp } from '../http/client-ip';
import { safeNext } from './next';
import { requestPasswordReset, RESET_DONE_MESSAGE, resetPassword } from './recovery';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from './schemas';
import { loginWithPassword, registerUser, verifyEmail } from './service';
import { ApprovalPendingPage } from './views/ApprovalPendingPage';
import { LoginPage, loginBanner } from './views/LoginPage';
import { ForgotPasswordPage, ResetPasswordPage } from './views/PasswordPages';
import { CheckEmailPage, RegisterPage } from './views/RegisterPage';
import { VerifyEmailPage, type VerifyState } from './views/VerifyEmailPage';

type C = Context<AppEnv>;

const page = (c: C, view: React.ReactElement, title: string, status: 200 | 400 | 401 | 403 | 409 | 422 | 429 = 200) => {
  c.status(status);
  return c.render(view, { title, bare: true });
};

const hasSso = (c: C) => !!c.var.deps.config.oidc;

/** An expected failure shown on a form: its headers (Retry-After) applied, its status and message returned. */
function failure(c: C, err: unknown) {
  if (!(err instanceof AppError)) throw err;
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return { status: err.status as 400 | 401 | 403 | 429, banner: { variant: 'error' as const, text: err.message } };
}

async function loginPost(c: C) {
  const form = await readForm(c, loginSchema);
  const { email } = form.values;
  const next = safeNext(form.values.next);
  if (!form.ok)
    return page(c, <LoginPage email={email} errors={form.errors} next={next} sso={hasSso(c)} />, 'Sign In', 422);
  try {
    const { session } = await loginWithPassword(c.var.deps.db, form.data, {
      ip: clientIp(c),
      userAgent: c.req.header('user-agent'),
    });
    setSessionCookie(c, session.token);
    return c.redirect(next, 303);
  } catch (err) {
    const { status, banner } = failure(c, err);
    return page(c, <LoginPage email={email} banner={banner} next={next} sso={hasSso(c)} />, 'Sign In', status);
  }
}

async function registerPost(c: C) {
  const form = await readForm(c, registerSchema);
  const { firstName, lastName, email } = form.values;
  const values = { firstName, lastName, email };
  if (!form.ok) return page(c, <RegisterPage values={values} errors={form.errors} sso={hasSso(c)} />, 'Register', 422);
  try {
    await registerUser(c.var.deps.db, c.var.deps.config.appUrl, form.data, { ip: clientIp(c) });
  } catch (err) {
    const { status, banner } = failure(c, err);
    return page(c, <RegisterPage values={values} banner={banner} sso={hasSso(c)} />, 'Register', status);
  }
  return c.redirect('/register?sent=1', 303);
}

/** Runs the e-mail verification; the page's result state. */
async function verifyState(c: C, token: string | undefined): Promise<VerifyState> {
  if (!token) return { kind: 'missing' };
  try {
    const result = await verifyEmail(c.var.deps.db, c.var.deps.config.appUrl, token);
    return { kind: 'success', result };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { kind: 'error', message: err.message };
  }
}

async function resetPost(c: C) {
  const form = await readForm(c, resetPasswordSchema);
  const { token } = form.values;
  if (!form.ok) {
    const banner = form.errors.token ? { variant: 'error' as const, text: form.errors.token } : null;
    return page(c, <ResetPasswordPage token={token} errors={form.errors} banner={banner} />, 'Reset Password', 422);
  }
  try {
    const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') };
    await resetPassword(c.var.deps.db, form.data, { appUrl: c.var.deps.config.appUrl, client });
  } catch (err) {
    const { status, banner } = failure(c, err);
    return page(c, <ResetPasswordPage token={token} banner={banner} />, 'Reset Password', status);
  }
  return c.redirect(`/login?success=password_reset&message=${encodeURIComponent(RESET_DONE_MESSAGE)}`, 303);
}

/** The public account pages (spec §2): forms POST and redirect (303); invalid input re-renders with 422. */
export function authPages() {
  const app = new Hono<AppEnv>();

  app.get('/login', publicRoute(), (c) => {
    const next = safeNext(c.req.query('next'));
    if (c.var.user) return c.redirect(next);
    const q = c.req.query();
    return page(c, <LoginPage banner={loginBanner(q)} email={q.email} next={next} sso={hasSso(c)} />, 'Sign In');
  });
  app.post('/login', publicRoute(), loginPost);

  app.get('/register', publicRoute(), (c) => {
    if (c.var.user) return c.redirect('/');
    if (c.req.query('sent')) return page(c, <CheckEmailPage />, 'Check Your Email');
    return page(c, <RegisterPage values={{ email: c.req.query('email') }} sso={hasSso(c)} />, 'Register');
  });
  app.post('/register', publicRoute(), registerPost);

  app.get('/verify-email', publicRoute(), (c) => {
    const token = c.req.query('token');
    const state: VerifyState = token ? { kind: 'loading', token } : { kind: 'missing' };
    return page(c, <VerifyEmailPage state={state} />, 'Verify Email');
  });
  app.get('/verify-email/confirm', publicRoute(), async (c) => {
    const state = await verifyState(c, c.req.query('token'));
    const status = state.kind === 'error' ? 400 : 200;
    // htmx swaps only 2xx answers: the fragment is always 200, the full page carries the real status.
    if (isHtmx(c)) return fragment(c, <VerifyEmailPage state={state} />);
    return page(c, <VerifyEmailPage state={state} />, 'Verify Email', status);
  });

  app.get('/approval-pending', publicRoute(), (c) => page(c, <ApprovalPendingPage />, 'Approval Pending'));

  app.get('/forgot-password', publicRoute(), (c) =>
    page(c, <ForgotPasswordPage sent={!!c.req.query('sent')} />, 'Forgot Password'),
  );
  app.post('/forgot-password', publicRoute(), async (c) => {
    const form = await readForm(c, forgotPasswordSchema);
    const { email } = form.values;
    if (!form.ok)
      return page(c, <ForgotPasswordPage email={email} error={form.errors.email} />, 'Forgot Password', 422);
    try {
      await requestPasswordReset(c.var.deps.db, c.var.deps.config.appUrl, form.data.email, { ip: clientIp(c) });
    } catch (err) {
      const { status, banner } = failure(c, err);
      return page(c, <ForgotPasswordPage email={email} banner={banner} />, 'Forgot Password', status);
    }
    return c.redirect('/forgot-password?sent=1', 303);
  });

  app.get('/reset-password', publicRoute(), (c) =>
    page(c, <ResetPasswordPage token={c.req.query('token')} />, 'Reset Password'),
  );
  app.post('/reset-password', publicRoute(), resetPost);

  return app;
}
