import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { approveInput, userIdParam } from './schemas';
import { decideUser, listPendingUsers } from './service';

/** /api/admin approvals: admins only (403 for everyone else), every decision audit-logged. */
export function adminApi() {
  const app = new Hono<AppEnv>();
  for (const path of ['/api/admin/pending-users', '/api/admin/approve-user/*', '/api/admin/reject-user/*'])
    app.use(path, allow('user.approve'));

  app.get('/api/admin/pending-users', async (c) => c.json(await listPendingUsers(c.var.deps.db)));

  app.post('/api/admin/approve-user/:id', validate('param', userIdParam), validate('json', approveInput), async (c) => {
    const { deps, user } = c.var;
    const id = c.req.valid('param').id;
    const { role } = c.req.valid('json');
    const result = await decideUser(deps.db, deps.config.appUrl, user!, id, 'approve', role);
    return c.json({ message: 'User approved', user: result.user, status: result.status });
  });
  app.post('/api/admin/reject-user/:id', validate('param', userIdParam), async (c) => {
    const { deps, user } = c.var;
    const result = await decideUser(deps.db, deps.config.appUrl, user!, c.req.valid('param').id, 'reject');
    return c.json({ message: 'User rejected', user: result.user, status: result.status });
  });
  return app;
}
