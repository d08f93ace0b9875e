import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { allow, allowPage } from '../auth/policy';
import { fragment, isHtmx } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { validate } from '../http/validate';
import { jobNames, jobsMode, jobsOverview, jobTitle } from './overview';
import { runJobNow } from './runner';
import { failedMail } from './service';
import { JobsPage, JobsTable } from './views/JobsPage';

const runParams = z.object({ name: z.enum(jobNames) });
const noticeQuery = z.object({
  ran: z.enum(jobNames).optional(),
  status: z.enum(['ok', 'error', 'skipped', 'running']).optional(),
});

const NOTICE: Record<string, 'success' | 'error' | 'info'> = {
  ok: 'success',
  error: 'error',
  skipped: 'info',
  running: 'info',
};

function noticeText(name: string, status: string): string {
  const title = jobTitle(name);
  if (status === 'ok') return `${title} finished.`;
  if (status === 'error') return `${title} failed; see its result below.`;
  if (status === 'running') return `${title} is still running; refresh for the result.`;
  return `${title} is already running elsewhere, so it was not started again.`;
}

/** /admin/jobs (admins only): job schedules, last/next runs, "run now", failed e-mail. */
export function jobsPages() {
  const app = new Hono<AppEnv>();

  app.get('/admin/jobs', allowPage('jobs.read'), async (c) => {
    const { db, config } = c.var.deps;
    const q = noticeQuery.safeParse(c.req.query());
    const notice =
      q.success && q.data.ran && q.data.status
        ? { variant: NOTICE[q.data.status], text: noticeText(q.data.ran, q.data.status) }
        : undefined;
    const [jobs, failed] = [await jobsOverview(db, config, c.var.user!.timezone), await failedMail(db)];
    return c.render(
      <JobsPage
        jobs={jobs}
        mode={jobsMode(config)}
        failed={failed}
        timeZone={c.var.user!.timezone}
        now={new Date()}
        notice={notice}
      />,
      { title: 'Jobs', subtitle: 'Scheduled health checks, e-mail delivery, expiry and reports' },
    );
  });

  app.post('/admin/jobs/:name/run', allow('jobs.run'), validate('param', runParams), async (c) => {
    const { name } = c.req.valid('param');
    const outcome = await runJobNow(c.var.deps, name, c.var.user!.id);
    c.var.logger.info({ job: name, status: outcome.status, by: c.var.user!.id }, 'job run on request');
    if (isHtmx(c)) {
      triggerToast(c, noticeText(name, outcome.status), outcome.message, NOTICE[outcome.status]);
      const jobs = await jobsOverview(c.var.deps.db, c.var.deps.config, c.var.user!.timezone);
      return fragment(c, <JobsTable jobs={jobs} timeZone={c.var.user!.timezone} now={new Date()} />);
    }
    return c.redirect(`/admin/jobs?ran=${name}&status=${outcome.status}`, 303);
  });

  return app;
}
