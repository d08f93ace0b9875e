import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { AppError, notFound } from '../http/errors';
import { fieldErrors } from '../http/form';
import type { Toast } from '../http/flash';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  listMaintenanceWindows,
  maintenanceWindowInput,
  serverChoices,
} from './maintenance-windows';
import { isUuid } from './service';
import { MaintenanceWindowsPage, type WindowFormValues } from './views/MaintenanceWindowsPage';
import { wallTimeToInstant } from './wall-time';

type C = Context<AppEnv>;
const PAGE = { title: 'Maintenance Windows', subtitle: 'Checks run, nobody is alerted, servers show maintenance' };
const DONE: Record<string, Toast> = {
  added: { title: 'Maintenance window added', variant: 'success' },
  deleted: { title: 'Maintenance window deleted', variant: 'success' },
};

async function render(c: C, form: { errors?: Record<string, string>; values?: WindowFormValues } = {}, toast?: Toast) {
  const { db } = c.var.deps;
  const [windows, servers] = await Promise.all([listMaintenanceWindows(db), serverChoices(db)]);
  return c.render(
    <MaintenanceWindowsPage windows={windows} servers={servers} timeZone={c.var.user!.timezone} {...form} />,
    { ...PAGE, toast },
  );
}

/** The form's fields; start and end are wall-clock times in the user's own timezone. */
async function readWindowForm(c: C): Promise<{ values: WindowFormValues; input: Record<string, unknown> }> {
  const body = await c.req.parseBody({ all: true });
  const one = (k: string) => String([body[k] ?? ''].flat()[0] ?? '');
  const values: WindowFormValues = {
    name: one('name'),
    environment: one('environment'),
    startsAt: one('startsAt'),
    endsAt: one('endsAt'),
    weekly: one('weekly') === 'on',
    serverIds: [body.serverIds ?? []].flat().filter((v): v is string => typeof v === 'string'),
  };
  const tz = c.var.user!.timezone;
  const instant = (v: string) => wallTimeToInstant(v, tz)?.toISOString() ?? v;
  return {
    values,
    input: {
      ...values,
      environment: values.environment || null,
      startsAt: instant(values.startsAt),
      endsAt: instant(values.endsAt),
    },
  };
}

/** /admin/maintenance-windows: the windows, a plain form to add one, Delete buttons (editors and admins). */
export function maintenanceWindowPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/maintenance-windows', allowPage('maintenance.manage'));
  app.use('/admin/maintenance-windows/*', allowPage('maintenance.manage'));

  app.get('/admin/maintenance-windows', (c) => render(c, {}, DONE[c.req.query('done') ?? '']));
  app.post('/admin/maintenance-windows', async (c) => {
    const { values, input } = await readWindowForm(c);
    const parsed = maintenanceWindowInput.safeParse(input);
    if (!parsed.success) {
      c.status(400);
      return render(c, { errors: fieldErrors(parsed.error), values });
    }
    try {
      await createMaintenanceWindow(c.var.deps.db, parsed.data, c.var.user!.id);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      c.status(400);
      return render(c, { errors: { serverIds: err.message }, values });
    }
    return c.redirect('/admin/maintenance-windows?done=added', 303);
  });
  app.post('/admin/maintenance-windows/:id/delete', async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound('Maintenance window not found.');
    await deleteMaintenanceWindow(c.var.deps.db, id, c.var.user!.id);
    return c.redirect('/admin/maintenance-windows?done=deleted', 303);
  });
  return app;
}
