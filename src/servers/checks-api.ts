import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { listChecks, replaceChecks } from './checks';
import { targetPolicy } from './probes/targets';
import { checksInput } from './schemas';
import { requireServer } from './service';

/** GET|PUT /api/servers/{id}/checks (issue 24): whoever may see the server reads; editors and admins replace. */
export function serverChecksApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/servers/:id/checks', requireUser(), async (c) => {
    const server = await requireServer(c.var.deps.db, c.req.param('id'));
    return c.json(await listChecks(c.var.deps.db, server));
  });
  // The same permission as changing a server's address or port.
  app.put('/api/servers/:id/checks', allow('content.write'), validate('json', checksInput), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(
      await replaceChecks(db, c.req.param('id'), c.req.valid('json'), targetPolicy(config), c.var.user!.id),
    );
  });
  return app;
}
