import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { AppError } from '../http/errors';
import { fragment } from '../http/htmx';
import type { Space } from '../knowledge/shared';
import { readUploadForm } from './request';
import { importForm, importPageQuery } from './schemas';
import {
  cancelPreview,
  confirmImport,
  countImport,
  importForPage,
  importReport,
  LIMITS,
  megabytes,
  recentImports,
  savePreview,
  withUploadSlot,
} from './service';
import { ImportJobPage, ImportProgress } from './views/ImportJobPage';
import { ImportPage } from './views/ImportPage';

type C = Context<AppEnv>;
const PAGE = { title: 'Import', subtitle: 'Markdown files and zips of folders as knowledge items or documents' };
const LIMIT_TEXTS = {
  upload: megabytes(LIMITS.uploadBytes),
  files: LIMITS.files.toLocaleString('en'),
  unpacked: megabytes(LIMITS.unpackedBytes),
};

async function renderForm(c: C, space: Space, error?: string) {
  const user = c.var.user!;
  const recent = await recentImports(c.var.deps.db, user.id);
  return c.render(
    <ImportPage space={space} recent={recent} timeZone={user.timezone} limits={LIMIT_TEXTS} error={error} />,
    PAGE,
  );
}

/**
 * /import (editors and admins, no JavaScript needed): upload → preview (kept until confirmed) → Confirm → the
 * report page, whose progress htmx refreshes (the page reloads itself without JavaScript).
 */
export function importPages() {
  const app = new Hono<AppEnv>();
  app.use('/import', allowPage('data.import'));
  app.use('/import/*', allowPage('data.import'));

  app.get('/import', (c) => renderForm(c, importPageQuery.parse(c.req.query()).space));

  app.post('/import', async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!;
    let space: Space = 'knowledge';
    try {
      const id = await withUploadSlot(async () => {
        await countImport(db, user.id);
        const { files, fields } = await readUploadForm(c);
        const parsed = importForm.safeParse(fields);
        if (!parsed.success) throw new AppError(400, parsed.error.issues[0].message);
        space = parsed.data.space;
        return savePreview(db, files, space, user);
      });
      return c.redirect(`/import/${id}`, 303);
    } catch (err) {
      if (!(err instanceof AppError) || (err.status >= 500 && err.status !== 503)) throw err;
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      c.status(err.status);
      return renderForm(c, space, err.message);
    }
  });

  app.get('/import/:id', async (c) => {
    const { job, mine } = await importForPage(c.var.deps.db, c.req.param('id'), c.var.user);
    return c.render(<ImportJobPage job={job} mine={mine} />, PAGE);
  });

  app.get('/import/:id/progress', async (c) =>
    fragment(c, <ImportProgress job={await importReport(c.var.deps.db, c.req.param('id'), c.var.user)} />),
  );

  app.post('/import/:id/confirm', async (c) => {
    const { db, logger } = c.var.deps;
    await confirmImport(db, logger, c.req.param('id'), c.var.user);
    return c.redirect(`/import/${c.req.param('id')}`, 303);
  });

  app.post('/import/:id/cancel', async (c) => {
    const space = await cancelPreview(c.var.deps.db, c.req.param('id'), c.var.user);
    return c.redirect(`/import?space=${space}`, 303);
  });

  return app;
}
