import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { listAuditEvents } from '../audit/service';
import { accessDenied } from './denied';
import { auditQuery } from './schemas';
import { AuditPage } from './views/AuditPage';

const PAGE = { title: 'Audit Trail', subtitle: 'Who changed what, newest first' };

/** /admin/audit: the read-only audit trail for admins and auditors, times in the reader's timezone. */
export function auditPages() {
  const app = new Hono<AppEnv>();
  app.get('/admin/audit', allowPage('audit.read', accessDenied(PAGE)), async (c) => {
    const { page } = auditQuery.parse(c.req.query());
    const { events, hasMore } = await listAuditEvents(c.var.deps.db, page);
    return c.render(<AuditPage events={events} page={page} hasMore={hasMore} timeZone={c.var.user!.timezone} />, PAGE);
  });
  return app;
}
