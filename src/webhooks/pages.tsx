import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { AppError, notFound } from '../http/errors';
import type { Toast } from '../http/flash';
import { fieldErrors } from '../http/form';
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, resendDelivery } from './commands';
import { endpointInput, idParam } from './schemas';
import { WebhookDeliveriesPage } from './views/WebhookDeliveriesPage';
import { WebhooksPage, type WebhooksPageProps } from './views/WebhooksPage';

type C = Context<AppEnv>;
type Values = Record<string, string | string[]>;

const PAGE = { title: 'Webhooks', subtitle: 'Events posted to other systems as they happen, signed' };
const DONE: Record<string, Toast> = {
  added: { title: 'Webhook registered', variant: 'success' },
  deleted: { title: 'Webhook deleted', variant: 'success' },
  resent: { title: 'Delivery queued again', text: 'It keeps its delivery id.', variant: 'success' },
};

type FormState = Pick<WebhooksPageProps, 'errors' | 'values' | 'madeSecret'>;

async function renderList(c: C, form: FormState = {}, toast?: Toast) {
  const { db, config } = c.var.deps;
  const props: WebhooksPageProps = {
    endpoints: await listEndpoints(db),
    timeZone: c.var.user!.timezone,
    allowed: config.webhookAllowHosts.entries,
    suggestedSecret: randomBytes(24).toString('hex'),
    ...form,
  };
  return c.render(<WebhooksPage {...props} />, { ...PAGE, toast });
}

/** The form as the API's body: every ticked event, the rest as sent ("" for the format: from the URL). */
async function endpointForm(c: C): Promise<Values> {
  const body = await c.req.parseBody({ all: true });
  const values: Values = {};
  for (const [k, v] of Object.entries(body)) {
    const list = [v].flat().filter((x): x is string => typeof x === 'string');
    values[k] = k === 'events' ? list : (list[0] ?? '');
  }
  values.events ??= [];
  return values;
}

const asInput = (v: Values) => ({ ...v, format: v.format || undefined });

const uuidOr404 = (id: string | undefined, what: string) => {
  const parsed = idParam.safeParse({ id });
  if (!parsed.success) throw notFound(`${what} not found.`);
  return parsed.data.id;
};

/** /admin/webhooks and /admin/webhooks/{id} (admins; plain forms, no JavaScript needed). */
export function webhookPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/webhooks', allowPage('webhooks.manage'));
  app.use('/admin/webhooks/*', allowPage('webhooks.manage'));
  app.use('/admin/webhook-deliveries/*', allowPage('webhooks.manage'));

  app.get('/admin/webhooks', (c) => renderList(c, {}, DONE[c.req.query('done') ?? '']));
  app.post('/admin/webhooks', async (c) => {
    const values = await endpointForm(c);
    const parsed = endpointInput.safeParse(asInput(values));
    // A secret typed into the form is never sent back in a page (the form asks for it again).
    const { secret: _typed, ...shown } = values;
    if (!parsed.success) {
      c.status(400);
      return renderList(c, { errors: fieldErrors(parsed.error), values: shown });
    }
    try {
      const { db, config } = c.var.deps;
      const made = await createEndpoint(db, parsed.data, c.var.user!.id, config.webhookAllowHosts);
      // A secret the form did not carry was made here: this page is the one time it is shown.
      if (!parsed.data.secret) return renderList(c, { madeSecret: { url: made.url, secret: made.secret } });
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 400 && err.status !== 409)) throw err;
      c.status(err.status);
      return renderList(c, {
        errors: { [err.message.startsWith('url') ? 'url' : 'form']: err.message },
        values: shown,
      });
    }
    return c.redirect('/admin/webhooks?done=added', 303);
  });
  app.post('/admin/webhooks/:id/delete', async (c) => {
    await deleteEndpoint(c.var.deps.db, uuidOr404(c.req.param('id'), 'Webhook'), c.var.user!.id);
    return c.redirect('/admin/webhooks?done=deleted', 303);
  });
  app.get('/admin/webhooks/:id', async (c) => {
    const { db } = c.var.deps;
    const endpoint = await getEndpoint(db, uuidOr404(c.req.param('id'), 'Webhook'));
    const deliveries = await listDeliveries(db, endpoint.id);
    const toast = DONE[c.req.query('done') ?? ''];
    return c.render(
      <WebhookDeliveriesPage endpoint={endpoint} deliveries={deliveries} timeZone={c.var.user!.timezone} />,
      { title: 'Webhook deliveries', subtitle: 'The newest 100, with the receiver’s last answer', toast },
    );
  });
  app.post('/admin/webhook-deliveries/:id/resend', async (c) => {
    const d = await resendDelivery(c.var.deps.db, uuidOr404(c.req.param('id'), 'Delivery'), c.var.user!.id);
    return c.redirect(`/admin/webhooks/${d.endpointId}?done=resent`, 303);
  });
  return app;
}
