import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, authorize } from '../auth/policy';
import { validate } from '../http/validate';
import { alertRuleInput, idParam } from './schemas';
import {
  acknowledgeAlert,
  createAlertRule,
  deleteAlertRule,
  getAlert,
  listAlertRules,
  listOpenAlerts,
} from './service';

/** GET|POST /api/admin/alert-rules, DELETE /api/admin/alert-rules/{id}; GET /api/alerts, POST /api/alerts/{id}/ack. */
export function alertsApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/admin/alert-rules', allow('alerts.manage'));
  app.use('/api/admin/alert-rules/*', allow('alerts.manage'));

  app.get('/api/admin/alert-rules', async (c) => c.json(await listAlertRules(c.var.deps.db)));
  app.post('/api/admin/alert-rules', validate('json', alertRuleInput), async (c) => {
    const { db, config } = c.var.deps;
    return c.json(await createAlertRule(db, c.req.valid('json'), c.var.user!.id, config.alertWebhookHosts), 201);
  });
  app.delete('/api/admin/alert-rules/:id', validate('param', idParam), async (c) => {
    await deleteAlertRule(c.var.deps.db, c.req.valid('param').id, c.var.user!.id);
    return c.body(null, 204);
  });

  // Every signed-in reader sees every server, so every open alert: the newest 500 (OPEN_ALERTS_LIMIT).
  app.get('/api/alerts', allow('app.use'), async (c) => c.json(await listOpenAlerts(c.var.deps.db)));
  app.post('/api/alerts/:id/ack', allow('app.use'), validate('param', idParam), async (c) => {
    const { db } = c.var.deps;
    const alert = await getAlert(db, c.req.valid('param').id);
    authorize(c.var.user, 'alert.ack', { recipientIds: alert.recipientIds });
    return c.json(await acknowledgeAlert(db, alert.id, c.var.user!.id));
  });
  return app;
}
