import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { AppError } from '../http/errors';
import { setFlash } from '../http/flash';
import { readForm } from '../http/form';
import { clearSessionCookie, setSessionCookie } from '../http/session';
import { safeNext } from './next';
import { publicRoute } from './policy';
import { revokeSession } from './sessions';
import { twoFactorCodeSchema } from './schemas';
import { codeRequester, sessionToken } from './two-factor-api';
import { findCodeStep, finishTwoFactorSignIn } from './two-factor-signin';
import { TwoFactorPage } from './views/TwoFactorPage';

type C = Context<AppEnv>;

const page = (c: C, view: React.ReactElement, status: 200 | 401 | 422 | 429 = 200) => {
  c.status(status);
  return c.render(view, { title: 'Two-factor sign-in', bare: true });
};

/** Back to the password: the attempt is over (voided, expired or cancelled). */
const restart = (c: C, error: string) => {
  clearSessionCookie(c);
  return c.redirect(`/login?error=${error}`, 303);
};

async function codePost(c: C) {
  const form = await readForm(c, twoFactorCodeSchema);
  const next = safeNext(form.values.next);
  if (!form.ok) return page(c, <TwoFactorPage next={next} error={form.errors.code} />, 422);
  try {
    const { token } = await finishTwoFactorSignIn(c.var.deps.db, sessionToken(c), form.data.code, codeRequester(c));
    setSessionCookie(c, token);
    setFlash(c, 'signed_in');
    return c.redirect(next, 303);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'two_factor_locked' || err.code === 'two_factor_expired') return restart(c, err.code);
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return page(c, <TwoFactorPage next={next} error={err.message} />, err.status === 429 ? 429 : 401);
  }
}

/** The code step of the HTML sign-in: /login/two-factor (a form that works without JavaScript). */
export function twoFactorPages() {
  const app = new Hono<AppEnv>();
  app.get('/login/two-factor', publicRoute(), async (c) => {
    const next = safeNext(c.req.query('next'));
    if (c.var.user) return c.redirect(next);
    if (!(await findCodeStep(c.var.deps.db, sessionToken(c)))) return c.redirect('/login');
    return page(c, <TwoFactorPage next={next} />);
  });
  app.post('/login/two-factor', publicRoute(), codePost);
  app.post('/login/two-factor/cancel', publicRoute(), async (c) => {
    const step = await findCodeStep(c.var.deps.db, sessionToken(c));
    if (!step) return c.redirect('/login', 303);
    await revokeSession(c.var.deps.db, step.sid);
    clearSessionCookie(c);
    return c.redirect('/login', 303);
  });
  return app;
}
