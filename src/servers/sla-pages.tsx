import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { formValues } from '../http/form';
import { slaTargetsInput } from './history/inputs';
import { listSlaTargets, setSlaTargets, slaMisses } from './history/sla';
import { SlaTargetsPage } from './views/SlaTargetsPage';

const PAGE = { title: 'SLA targets', subtitle: 'Availability each environment promises, and who missed it' };

async function render(c: Context<AppEnv>, state: { error?: string; saved?: boolean } = {}) {
  const { db } = c.var.deps;
  const [targets, misses] = await Promise.all([listSlaTargets(db), slaMisses(db)]);
  return c.render(<SlaTargetsPage targets={targets} misses={misses} {...state} />, PAGE);
}

/** The form's fields as the API's body: an empty field removes the target. */
function targetsOf(values: Record<string, string>) {
  const body: Record<string, number | null> = {};
  for (const e of ['production', 'staging', 'development'])
    if (e in values) body[e] = values[e].trim() === '' ? null : Number(values[e]);
  return slaTargetsInput.safeParse(body);
}

/** /admin/sla-targets: edit the targets without JavaScript (POST → 303 back), admins only. */
export function slaPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/sla-targets', allowPage('sla.manage'));
  app.get('/admin/sla-targets', (c) => render(c, { saved: c.req.query('saved') === '1' }));
  app.post('/admin/sla-targets', async (c) => {
    const parsed = targetsOf(await formValues(c));
    if (!parsed.success) {
      c.status(400);
      return render(c, { error: parsed.error.issues[0]?.message ?? 'Invalid targets.' });
    }
    await setSlaTargets(c.var.deps.db, parsed.data, c.var.user!.id);
    return c.redirect('/admin/sla-targets?saved=1', 303);
  });
  return app;
}
