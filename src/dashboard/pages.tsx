import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { allowPage, can, requirePageUser } from '../auth/policy';
import { checkAll } from '../servers/commands';
import { fragment, isHtmx, isHtmxFor } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { dueForReview } from './due-for-review';
import { dashboardStats, dashboardView, environmentFilters, overviewServers, type EnvironmentFilter } from './service';
import { DashboardPage, healthSummaryText } from './views/DashboardPage';
import { InfraOverview } from './views/InfraOverview';
import { StatCards } from './views/StatCards';

const envOf = (raw: string | null | undefined): EnvironmentFilter =>
  (environmentFilters as readonly string[]).includes(raw ?? '') ? (raw as EnvironmentFilter) : 'all';

const count = z.coerce.number().int().min(0).max(1e6);
const healthQuery = z.object({ checked: count, online: count, warning: count, offline: count });

/** The environment filter of the page the htmx request came from (HX-Current-URL). */
function currentEnvironment(c: Context<AppEnv>): EnvironmentFilter {
  try {
    return envOf(new URL(c.req.header('HX-Current-URL') ?? '', 'http://x').searchParams.get('environment'));
  } catch {
    return 'all';
  }
}

async function infraOverview(c: Context<AppEnv>, environment: EnvironmentFilter) {
  return (
    <InfraOverview
      environment={environment}
      canWrite={can(c.var.user, 'content.write')}
      {...(await overviewServers(c.var.deps.db, c.var.user!.timezone, environment))}
    />
  );
}

/** GET / (signed in): the dashboard, or its Infrastructure Overview fragment for htmx; POST the health check. */
export function dashboardPages() {
  const app = new Hono<AppEnv>();
  app.get('/', requirePageUser(), async (c) => {
    const { db } = c.var.deps;
    const environment = envOf(c.req.query('environment'));
    if (isHtmxFor(c, 'infra-overview')) return fragment(c, await infraOverview(c, environment));
    const [{ stats, articles, infra }, due] = await Promise.all([
      dashboardView(db, c.var.user, c.var.user!.timezone, environment),
      dueForReview(db, c.var.user),
    ]);
    const health = healthQuery.safeParse(c.req.query());
    return c.render(
      <DashboardPage
        stats={stats}
        articles={articles}
        infra={{ environment, canWrite: can(c.var.user, 'content.write'), ...infra }}
        now={new Date()}
        health={health.success ? health.data : undefined}
        canWrite={can(c.var.user, 'content.write')}
        review={{ items: due, timeZone: c.var.user!.timezone }}
      />,
      { title: 'Dashboard', subtitle: 'Overview of your infrastructure and knowledge base' },
    );
  });
  app.post('/dashboard/health-check', allowPage('content.write'), async (c) => {
    const { db } = c.var.deps;
    // During a round this click joins it and answers what the whole round found so far (found).
    const summary = (await checkAll(c.var.deps)).found;
    if (!isHtmx(c)) {
      return c.redirect(`/?${new URLSearchParams(Object.entries(summary).map(([k, v]) => [k, String(v)]))}`, 303);
    }
    triggerToast(c, 'Health Check Complete', healthSummaryText(summary));
    const stats = await dashboardStats(db, c.var.user, c.var.user!.timezone);
    return fragment(
      c,
      <>
        {await infraOverview(c, currentEnvironment(c))}
        <StatCards stats={stats} oob />
      </>,
    );
  });
  return app;
}
