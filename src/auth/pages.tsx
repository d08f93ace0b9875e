import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from './policy';
import { AppError } from '../http/errors';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { setFlash, type Toast } from '../http/flash';
import { setSessionCookie } from '../http/session';
import { clientIp } from '../http/client-ip';
import { codeStepUrl, safeNext, TWO_FACTOR_SETUP_PATH } from './next';
import { requestPasswordReset, RESET_DONE_MESSAGE, resetPassword } from './recovery';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from './schemas';
import { INVALID_CREDENTIALS, loginWithPassword, registerUser, verifyEmail } from './service';
import { ApprovalPendingPage } from './views/ApprovalPendingPage';
import type { Providers } from './views/AuthCard';
import { LoginPage, loginBanner } from './views/LoginPage';
import { ForgotPasswordPage, ResetPasswordPage } from './views/PasswordPages';
import { CheckEmailPage, RegisterPage } from './views/RegisterPage';
import { VerifyEmailPage, type VerifyState } from './views/VerifyEmailPage';

type C = Context<AppEnv>;

type Status = 200 | 400 | 401 | 403 | 409 | 422 | 429;

const page = (c: C, view: React.ReactElement, title: string, status: Status = 200, toast?: Toast) => {
  c.status(status);
  return c.render(view, { title, bare: true, toast });
};

/** The sign-in providers to offer: only those the server is configured for. */
const providersOf = (c: C): Providers => ({ google: !!c.var.deps.config.google, sso: !!c.var.deps.config.oidc });

/** Spec §8: a refused sign-in or registration also toasts, with the server's message (the first field error). */
const failedToast = (title: 'Login Failed' | 'Registration Failed', message: string | undefined, fallback: string) => ({
  title,
  text: message ?? fallback,
  variant: 'error' as const,
});
const firstError = (errors: Record<string, string>) => Object.values(errors)[0];
const loginFailed = (message?: string) => failedToast('Login Failed', message, INVALID_CREDENTIALS);
const registrationFailed = (message?: string) =>
  failedToast('Registration Failed', message, 'An error occurred during registration.');

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
  const providers = providersOf(c);
  if (!form.ok) {
    const view = <LoginPage email={email} errors={form.errors} next={next} providers={providers} />;
    return page(c, view, 'Sign In', 422, loginFailed(firstError(form.errors)));
  }
  try {
    const { session } = await loginWithPassword(c.var.deps.db, form.data, {
      ip: clientIp(c),
      userAgent: c.req.header('user-agent'),
    });
    setSessionCookie(c, session.token);
    if (session.stage === 'two_factor') return c.redirect(codeStepUrl(next), 303);
    if (session.stage === 'two_factor_setup') return c.redirect(TWO_FACTOR_SETUP_PATH, 303);
    setFlash(c, 'signed_in');
    return c.redirect(next, 303);
  } catch (err) {
    const { status, banner } = failure(c, err);
    const view = <LoginPage email={email} banner={banner} next={next} providers={providers} />;
    return page(c, view, 'Sign In', status, loginFailed(banner.text));
  }
}

async function registerPost(c: C) {
  const form = await readForm(c, registerSchema);
  const { firstName, lastName, email } = form.values;
  const values = { firstName, lastName, email };
  const providers = providersOf(c);
  if (!form.ok) {
    const view = <RegisterPage values={values} errors={form.errors} providers={providers} />;
    return page(c, view, 'Register', 422, registrationFailed(firstError(form.errors)));
  }
  try {
    await registerUser(c.var.deps.db, c.var.deps.config.appUrl, form.data, { ip: clientIp(c) });
  } catch (err) {
    const { status, banner } = failure(c, err);
    const view = <RegisterPage values={values} banner={banner} providers={providers} />;
    return page(c, view, 'Register', status, registrationFailed(banner.text));
  }
  setFlash(c, 'registered');
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
    const view = <LoginPage banner={loginBanner(q)} email={q.email} next={next} providers={providersOf(c)} />;
    return page(c, view, 'Sign In');
  });
  app.post('/login', publicRoute(), loginPost);

  app.get('/register', publicRoute(), (c) => {
    if (c.var.user) return c.redirect('/');
    if (c.req.query('sent')) return page(c, <CheckEmailPage />, 'Check Your Email');
    return page(c, <RegisterPage values={{ email: c.req.query('email') }} providers={providersOf(c)} />, 'Register');
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
