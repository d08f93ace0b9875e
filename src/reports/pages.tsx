import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { buildHealthReport } from './service';
import { HealthReportPage } from './views/HealthReportPage';

/** /reports/health for any signed-in user: the fleet summary, server-rendered and printable. */
export function reportsPages() {
  const app = new Hono<AppEnv>();
  app.get('/reports/health', requirePageUser(), async (c) => {
    const report = await buildHealthReport(c.var.deps.db, c.var.user);
    return c.render(<HealthReportPage report={report} timeZone={c.var.user!.timezone} />, {
      title: 'Health report',
      subtitle: 'Fleet status, state changes, long outages, high usage and stale metrics',
    });
  });
  return app;
}
