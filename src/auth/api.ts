import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from './policy';
import { setSessionCookie } from '../http/session';
import { requireUser } from './policy';
import { validate } from '../http/validate';
import { publicUser } from './accounts';
import { SETUP_REQUIRED_MESSAGE } from './two-factor-gate';
import { logoutNavigation, signOut } from './logout';
import { clientIp } from '../http/client-ip';
import { requestPasswordReset, resetPassword } from './recovery';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema, verifyEmailQuery } from './schemas';
import { loginWithPassword, registerUser, verifyEmail } from './service';

export const CODE_REQUIRED_MESSAGE = 'Enter the code from your authenticator app to finish signing in.';

export const REGISTERED_MESSAGE = 'Registration successful. Please check your email to verify your account.';

/** /api/auth/* and /api/logout (spec §7). */
export function authApi() {
  const app = new Hono<AppEnv>();

  app.post('/api/auth/register', publicRoute(), validate('json', registerSchema), async (c) => {
    const { email } = await registerUser(c.var.deps.db, c.var.deps.config.appUrl, c.req.valid('json'), {
      ip: clientIp(c),
    });
    return c.json({ message: REGISTERED_MESSAGE, email }, 201);
  });

  app.get('/api/auth/verify-email', publicRoute(), validate('query', verifyEmailQuery), async (c) => {
    const result = await verifyEmail(c.var.deps.db, c.var.deps.config.appUrl, c.req.valid('query').token);
    return c.json(result);
  });

  app.post('/api/auth/login', publicRoute(), validate('json', loginSchema), async (c) => {
    const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') };
    const { user, session } = await loginWithPassword(c.var.deps.db, c.req.valid('json'), client);
    setSessionCookie(c, session.token);
    if (session.stage === 'two_factor') return c.json({ twoFactorRequired: true, message: CODE_REQUIRED_MESSAGE });
    if (session.stage === 'two_factor_setup')
      return c.json({ twoFactorSetupRequired: true, message: SETUP_REQUIRED_MESSAGE, user });
    return c.json({ message: 'Login successful', user });
  });

  app.get('/api/auth/user', requireUser(), (c) => {
    const setup = c.var.user!.twoFactorSetupRequired ? { twoFactorSetupRequired: true } : {};
    return c.json({ ...publicUser(c.var.user!), ...setup });
  });

  app.get('/api/logout', publicRoute(), logoutNavigation);
  app.post('/api/auth/logout', publicRoute(), signOut);

  app.post('/api/auth/forgot-password', publicRoute(), validate('json', forgotPasswordSchema), async (c) => {
    const result = await requestPasswordReset(c.var.deps.db, c.var.deps.config.appUrl, c.req.valid('json').email, {
      ip: clientIp(c),
    });
    return c.json(result);
  });

  app.post('/api/auth/reset-password', publicRoute(), validate('json', resetPasswordSchema), async (c) => {
    const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') };
    const result = await resetPassword(c.var.deps.db, c.req.valid('json'), {
      appUrl: c.var.deps.config.appUrl,
      client,
    });
    return c.json(result);
  });

  return app;
}
