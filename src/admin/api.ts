import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { userIdParam } from './schemas';
import { decideUser, listPendingUsers } from './service';

/** /api/admin/*: admins only (403 for everyone else), every decision audit-logged. */
export function adminApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/admin/*', allow('user.approve'));

  app.get('/api/admin/pending-users', async (c) => c.json(await listPendingUsers(c.var.deps.db)));

  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/api/admin/${decision}-user/:id`, validate('param', userIdParam), async (c) => {
      const { user, status } = await decideUser(
        c.var.deps.db,
        c.var.deps.config.appUrl,
        c.var.user!,
        c.req.valid('param').id,
        decision,
      );
      return c.json({ message: decision === 'approve' ? 'User approved' : 'User rejected', user, status });
    });
  }
  return app;
}
