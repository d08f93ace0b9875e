import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import { readUploadForm } from './request';
import { importQuery } from './schemas';
import { countImport, importReport, previewImport, startImport, withUploadSlot } from './service';

/**
 * POST /api/import?space=&dryRun= (multipart `files`: .md files with their images, or one .zip): a dry run answers
 * what each file would do, a real one 202 { jobId } (the job runs here, right after the answer);
 * GET /api/import/{jobId}: its progress and report (its creator and admins). While two uploads are being read in
 * this process, a third is answered 503 with Retry-After before its body is read.
 */
export function importApi() {
  const app = new Hono<AppEnv>();

  app.post('/api/import', allow('data.import'), validate('query', importQuery), async (c) => {
    const { space, dryRun } = c.req.valid('query');
    const { db, logger } = c.var.deps;
    const user = c.var.user!;
    return withUploadSlot(async () => {
      await countImport(db, user.id);
      const { files } = await readUploadForm(c);
      if (dryRun === 'true') return c.json({ items: await previewImport(db, files, space, user) });
      return c.json({ jobId: await startImport(db, logger, files, space, user) }, 202);
    });
  });

  app.get('/api/import/:id', allow('data.import'), async (c) =>
    c.json(await importReport(c.var.deps.db, c.req.param('id'), c.var.user)),
  );

  return app;
}
