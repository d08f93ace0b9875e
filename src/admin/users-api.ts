import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { changeAccount, listAccounts, resendVerification, resetTwoFactor } from './accounts';
import { accountChangeInput, securitySettingsInput, userIdParam } from './schemas';
import { getSecuritySettings, setSecuritySettings } from './security-settings';

/** /api/admin/users and /api/admin/settings: account management and workspace security (admins only). */
export function adminUsersApi() {
  const app = new Hono<AppEnv>();
  for (const path of ['/api/admin/users', '/api/admin/users/*', '/api/admin/settings'])
    app.use(path, allow('users.manage'));

  app.get('/api/admin/users', async (c) => c.json(await listAccounts(c.var.deps.db)));

  app.put('/api/admin/users/:id', validate('param', userIdParam), validate('json', accountChangeInput), async (c) =>
    c.json(await changeAccount(c.var.deps.db, c.var.user!, c.req.valid('param').id, c.req.valid('json'))),
  );
  app.post('/api/admin/users/:id/reset-2fa', validate('param', userIdParam), async (c) =>
    c.json(await resetTwoFactor(c.var.deps.db, c.var.user!, c.req.valid('param').id)),
  );
  app.post('/api/admin/users/:id/resend-verification', validate('param', userIdParam), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(await resendVerification(db, config.appUrl, c.var.user!, c.req.valid('param').id));
  });

  app.get('/api/admin/settings', async (c) => c.json(await getSecuritySettings(c.var.deps.db)));
  app.put('/api/admin/settings', validate('json', securitySettingsInput), async (c) =>
    c.json(await setSecuritySettings(c.var.deps.db, c.var.user!.id, c.req.valid('json'))),
  );
  return app;
}
