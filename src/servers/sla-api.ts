import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { slaTargetsInput } from './history/inputs';
import { listSlaTargets, setSlaTargets } from './history/sla';

/** GET|PUT /api/admin/sla-targets: each environment's availability target (percent), admins only. */
export function slaApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/admin/sla-targets', allow('sla.manage'));
  app.get('/api/admin/sla-targets', async (c) => c.json(await listSlaTargets(c.var.deps.db)));
  app.put('/api/admin/sla-targets', validate('json', slaTargetsInput), async (c) =>
    c.json(await setSlaTargets(c.var.deps.db, c.req.valid('json'), c.var.user!.id)),
  );
  return app;
}
