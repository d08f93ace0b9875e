import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { clientIp } from '../http/client-ip';
import { sessionCookieName, setSessionCookie } from '../http/session';
import { validate } from '../http/validate';
import { publicRoute, requireUser } from './policy';
import { twoFactorCodeSchema } from './schemas';
import type { CodeRequester } from './two-factor';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from './two-factor';
import { finishTwoFactorSignIn } from './two-factor-signin';

/** Who asks, for the code rate limits and the security alerts. */
export const codeRequester = (c: Context<AppEnv>): CodeRequester => ({
  appUrl: c.var.deps.config.appUrl,
  client: { ip: clientIp(c), userAgent: c.req.header('user-agent')?.slice(0, 300) },
});

/** The session cookie's token (a sign-in waiting for its code has no c.var.user). */
export const sessionToken = (c: Context<AppEnv>) => getCookie(c, sessionCookieName(c.var.deps.config.secureCookies));

/** The two-factor API: the code step of sign-in, and set-up / on / off for the signed-in user. */
export function twoFactorApi() {
  const app = new Hono<AppEnv>();

  app.post('/api/auth/two-factor', publicRoute(), validate('json', twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    const { token, user } = await finishTwoFactorSignIn(c.var.deps.db, sessionToken(c), code, codeRequester(c));
    setSessionCookie(c, token);
    return c.json({ message: 'Login successful', user });
  });

  app.post('/api/me/two-factor/setup', requireUser(), async (c) =>
    c.json(await startTwoFactorSetup(c.var.deps.db, c.var.user!.id)),
  );

  app.post('/api/me/two-factor/enable', requireUser(), validate('json', twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    const recoveryCodes = await enableTwoFactor(c.var.deps.db, c.var.user!.id, code, codeRequester(c));
    return c.json({ recoveryCodes });
  });

  app.post('/api/me/two-factor/disable', requireUser(), validate('json', twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    await disableTwoFactor(c.var.deps.db, c.var.user!.id, code, codeRequester(c));
    return c.json({ message: 'Two-factor sign-in is off.' });
  });

  return app;
}
