import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { auditCsvStream, auditFilterQuery, auditPageQuery, listAuditEvents } from '../audit/service';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';

/**
 * GET /api/admin/audit: the filtered audit trail, newest first, a keyset page at a time ({ events, nextCursor });
 * GET /api/admin/audit.csv: all of it as streamed CSV (admins and auditors).
 */
export function auditApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/admin/audit', allow('audit.read'), validate('query', auditPageQuery), async (c) => {
    const { cursor, limit, ...filters } = c.req.valid('query');
    const timeZone = c.var.user!.timezone;
    return c.json(await listAuditEvents(c.var.deps.db, { ...filters, timeZone }, { cursor, limit }));
  });
  app.get('/api/admin/audit.csv', allow('audit.read'), validate('query', auditFilterQuery), (c) => {
    const filters = { ...c.req.valid('query'), timeZone: c.var.user!.timezone };
    return c.body(auditCsvStream(c.var.deps.db, filters), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="audit-trail.csv"',
      // no-transform: the compression middleware would read the whole stream into memory first.
      'Cache-Control': 'no-store, no-transform',
    });
  });
  return app;
}
