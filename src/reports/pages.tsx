import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { validate } from '../http/validate';
import { buildHealthReport, checkedReportTeam, reportTeamOf, reportTeams } from './service';
import { HealthReportPage } from './views/HealthReportPage';

/** ?team=: a team's servers, empty for every server; left out, the reader's "Health report covers" setting. */
const reportQuery = z.object({ team: z.string().max(100, 'Team must be at most 100 characters.').optional() });

/** /reports/health for any signed-in user: the fleet summary, server-rendered and printable. */
export function reportsPages() {
  const app = new Hono<AppEnv>();
  app.get('/reports/health', requirePageUser(), validate('query', reportQuery), async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!;
    const asked = c.req.valid('query').team;
    const team = asked === undefined ? await reportTeamOf(db, user.id) : await checkedReportTeam(db, asked);
    const report = await buildHealthReport(db, user, { team });
    return c.render(<HealthReportPage report={report} timeZone={user.timezone} teams={await reportTeams(db)} />, {
      title: 'Health report',
      subtitle: 'Fleet status, servers down and their runbooks, state changes, documents to review',
    });
  });
  return app;
}
