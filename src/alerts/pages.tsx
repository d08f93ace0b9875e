import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage, can } from '../auth/policy';
import { AppError, notFound } from '../http/errors';
import { fieldErrors } from '../http/form';
import type { Toast } from '../http/flash';
import { alertRuleInput, idParam } from './schemas';
import { ackPath } from './shared';
import {
  acknowledgeAlert,
  activeUsers,
  createAlertRule,
  deleteAlertRule,
  getAlert,
  listAlertRules,
  listFailedDeliveries,
} from './service';
import { AckPage } from './views/AckPage';
import { AlertRulesPage } from './views/AlertRulesPage';

type C = Context<AppEnv>;
const PAGE = { title: 'Alert Rules', subtitle: 'Who hears about servers that go offline, and how' };
const DONE: Record<string, Toast> = {
  added: { title: 'Alert rule added', variant: 'success' },
  deleted: { title: 'Alert rule deleted', variant: 'success' },
};

type Values = Record<string, string | string[]>;

async function renderRules(c: C, form: { errors?: Record<string, string>; values?: Values } = {}, toast?: Toast) {
  const { db } = c.var.deps;
  const [rules, failed, people] = await Promise.all([listAlertRules(db), listFailedDeliveries(db), activeUsers(db)]);
  return c.render(
    <AlertRulesPage rules={rules} failed={failed} people={people} timeZone={c.var.user!.timezone} {...form} />,
    { ...PAGE, toast },
  );
}

/** The form as the API's body: ticked boxes are "on", unticked ones absent (false), recipients a list. */
async function ruleForm(c: C): Promise<Values> {
  const body = await c.req.parseBody({ all: true });
  const values: Values = {};
  for (const [k, v] of Object.entries(body)) {
    const list = [v].flat().filter((x): x is string => typeof x === 'string');
    values[k] = k === 'userIds' ? list : (list[0] ?? '');
  }
  return values;
}

const asInput = (v: Values) => ({
  ...v,
  userIds: [v.userIds ?? []].flat(),
  enabled: v.enabled === 'on',
  sendRecovery: v.sendRecovery === 'on',
});

const uuidOr404 = (id: string | undefined, what: string) => {
  const parsed = idParam.safeParse({ id });
  if (!parsed.success) throw notFound(`${what} not found.`);
  return parsed.data.id;
};

async function renderAck(c: C, id: string, done?: boolean) {
  const alert = await getAlert(c.var.deps.db, id);
  const mayAck = can(c.var.user, 'alert.ack', { recipientIds: alert.recipientIds });
  return c.render(<AckPage alert={alert} timeZone={c.var.user!.timezone} mayAck={mayAck} done={done} />, {
    title: 'Alert',
  });
}

/** /admin/alert-rules (admins; plain forms, no JavaScript needed) and /alerts/{id}/ack, the e-mail's link. */
export function alertPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/alert-rules', allowPage('alerts.manage'));
  app.use('/admin/alert-rules/*', allowPage('alerts.manage'));

  app.get('/admin/alert-rules', (c) => renderRules(c, {}, DONE[c.req.query('done') ?? '']));
  app.post('/admin/alert-rules', async (c) => {
    const values = await ruleForm(c);
    const parsed = alertRuleInput.safeParse(asInput(values));
    if (!parsed.success) {
      c.status(400);
      return renderRules(c, { errors: fieldErrors(parsed.error), values });
    }
    try {
      const { db, config } = c.var.deps;
      await createAlertRule(db, parsed.data, c.var.user!.id, config.alertWebhookHosts);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      c.status(400);
      const field = /^(webhookUrl|userIds)/.exec(err.message)?.[1] ?? 'form';
      return renderRules(c, { errors: { [field]: err.message }, values });
    }
    return c.redirect('/admin/alert-rules?done=added', 303);
  });
  app.post('/admin/alert-rules/:id/delete', async (c) => {
    await deleteAlertRule(c.var.deps.db, uuidOr404(c.req.param('id'), 'Alert rule'), c.var.user!.id);
    return c.redirect('/admin/alert-rules?done=deleted', 303);
  });

  // Signed-out visitors sign in and come back here (allowPage keeps the deep link).
  app.get('/alerts/:id/ack', allowPage('app.use'), (c) =>
    renderAck(c, uuidOr404(c.req.param('id'), 'Alert'), c.req.query('done') === '1'),
  );
  app.post('/alerts/:id/ack', allowPage('app.use'), async (c) => {
    const id = uuidOr404(c.req.param('id'), 'Alert');
    const { db } = c.var.deps;
    const alert = await getAlert(db, id);
    if (!can(c.var.user, 'alert.ack', { recipientIds: alert.recipientIds })) {
      c.status(403);
      return renderAck(c, id);
    }
    await acknowledgeAlert(db, id, c.var.user!.id);
    return c.redirect(`${ackPath(id)}?done=1`, 303);
  });
  return app;
}
