import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendDelivery } from './commands';
import { endpointInput, idParam } from './schemas';

/**
 * GET|POST /api/admin/webhooks, DELETE /api/admin/webhooks/{id}, GET /api/admin/webhooks/{id}/deliveries,
 * POST /api/admin/webhook-deliveries/{id}/resend (admins: webhooks.manage).
 */
export function webhooksApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/admin/webhooks', allow('webhooks.manage'));
  app.use('/api/admin/webhooks/*', allow('webhooks.manage'));
  app.use('/api/admin/webhook-deliveries/*', allow('webhooks.manage'));

  app.get('/api/admin/webhooks', async (c) => c.json(await listEndpoints(c.var.deps.db)));
  app.post('/api/admin/webhooks', validate('json', endpointInput), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(await createEndpoint(db, c.req.valid('json'), c.var.user!.id, config.webhookAllowHosts), 201);
  });
  app.delete('/api/admin/webhooks/:id', validate('param', idParam), async (c) => {
    await deleteEndpoint(c.var.deps.db, c.req.valid('param').id, c.var.user!.id);
    return c.body(null, 204);
  });
  app.get('/api/admin/webhooks/:id/deliveries', validate('param', idParam), async (c) =>
    c.json(await listDeliveries(c.var.deps.db, c.req.valid('param').id)),
  );
  app.post('/api/admin/webhook-deliveries/:id/resend', validate('param', idParam), async (c) =>
    c.json(await resendDelivery(c.var.deps.db, c.req.valid('param').id, c.var.user!.id)),
  );
  return app;
}
