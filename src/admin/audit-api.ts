import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { listAuditEvents } from '../audit/service';
import { validate } from '../http/validate';
import { auditQuery } from './schemas';

/** GET /api/admin/audit?page=N: the audit trail, newest first, 50 events a page (admins and auditors). */
export function auditApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/admin/audit', allow('audit.read'), validate('query', auditQuery), async (c) => {
    const { page } = c.req.valid('query');
    return c.json({ page, ...(await listAuditEvents(c.var.deps.db, page)) });
  });
  return app;
}
