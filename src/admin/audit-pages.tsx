import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { auditActors, auditPageQuery, listAuditEvents } from '../audit/service';
import { filterValues } from '../audit/shared';
import { allowPage } from '../auth/policy';
import { accessDenied } from './denied';
import { AuditPage } from './views/AuditPage';

const PAGE = { title: 'Audit Trail', subtitle: 'Who changed what, newest first' };

/** /admin/audit: the read-only, filterable audit trail for admins and auditors, times in the reader's timezone. */
export function auditPages() {
  const app = new Hono<AppEnv>();
  app.get('/admin/audit', allowPage('audit.read', accessDenied(PAGE)), async (c) => {
    const { db } = c.var.deps;
    const timeZone = c.var.user!.timezone;
    const filters = filterValues(c.req.query());
    const actors = await auditActors(db);
    const parsed = auditPageQuery.safeParse(c.req.query());
    if (!parsed.success) {
      c.status(400);
      const error = parsed.error.issues[0]?.message ?? 'These filters are not valid.';
      const props = { events: [], nextCursor: null, paged: false, filters, actors, timeZone, error };
      return c.render(<AuditPage {...props} />, PAGE);
    }
    const { cursor, limit, ...query } = parsed.data;
    const page = await listAuditEvents(db, { ...query, timeZone }, { cursor, limit });
    const props = { ...page, paged: !!cursor, filters, actors, timeZone };
    return c.render(<AuditPage {...props} />, PAGE);
  });
  return app;
}
