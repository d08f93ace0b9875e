import { iconSpriteUrl } from '../ui/icons';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { AppError, notFound } from '../http/errors';
import { checkForm, formValues } from '../http/form';
import { allowPage, can, requirePageUser } from '../auth/policy';
import { linkCandidates } from '../runbooks/service';
import { boardOf } from './checks';
import { checkServer } from './commands';
import { MISSING_SERVER, SERVER_PAGE_SIZE } from './shared';
import { serverExists, serverPage } from './list-page';
import { pageQueryFromUrl } from './list-query';
import { serverDetailOf } from './detail';
import { documentLinkInput } from './schemas';
import { documentCounts, isUuid, linkDocument, toHealthCheckEntry, requireServer, unlinkDocument } from './service';
import { InfrastructurePage } from './views/InfrastructurePage';
import { ServerDetail } from './views/ServerDetail';

const TITLE = 'Infrastructure';
const SUBTITLE = 'Monitor and manage your server infrastructure';

/** The detail page: facts, health history, runbooks and (for editors) the "Link a document" search `q`. */
async function renderDetail(c: Context<AppEnv>, id: string, linkError?: string) {
  const { db } = c.var.deps;
  const canWrite = can(c.var.user, 'content.write');
  const q = (c.req.query('q') ?? '').slice(0, 255);
  const [detail, results] = await Promise.all([
    serverDetailOf(db, id, c.var.user),
    canWrite ? linkCandidates(db, id, c.var.user, q) : [],
  ]);
  if (!detail) throw notFound('Server not found.');
  const { server, specs, rows, uptime, target, links } = detail;
  return c.render(
    <ServerDetail
      server={server}
      checks={rows.map(toHealthCheckEntry)}
      checkBoard={boardOf(specs, rows)}
      showCheckDetail={can(c.var.user, 'health.detail')}
      links={links}
      search={canWrite ? { q, results } : null}
      timeZone={c.var.user!.timezone}
      linkError={linkError}
      canWrite={canWrite}
      uptime={{ uptime, target, canEditTargets: can(c.var.user, 'sla.manage') }}
    />,
    {
      title: server.name,
      subtitle: SUBTITLE,
    },
  );
}

/** The page's address (path and query) without ?server=. */
function withoutServerParam(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('server');
  return url.pathname + url.search;
}

/** /infrastructure and /infrastructure/{id} (+ the detail page's no-JS forms). */
export function serverPages() {
  const app = new Hono<AppEnv>();
  app.use('/infrastructure', requirePageUser());
  app.use('/infrastructure/*', requirePageUser());

  app.get('/infrastructure', async (c) => {
    const { db } = c.var.deps;
    // Only the page shown is read: filters, sort and ?page= from the address (a value it does not know is ignored).
    const query = { ...pageQueryFromUrl(c.req.query()), pageSize: SERVER_PAGE_SIZE, columns: undefined };
    const highlight = c.req.query('server');
    const highlightId = highlight && isUuid(highlight) && (await serverExists(db, highlight)) ? highlight : null;
    // A ?server= link to a server that is not there (deleted, or a wrong id): say so, like the knowledge base's ?doc=.
    const missing = highlight !== undefined && !highlightId;
    const [page, docCounts] = await Promise.all([
      serverPage(db, query, { around: highlightId, clamp: true }),
      documentCounts(db, c.var.user),
    ]);
    return c.render(
      <InfrastructurePage
        pageRows={page.servers}
        total={page.total}
        pageIndex={page.page - 1}
        docCounts={docCounts}
        filters={{ q: query.q, environment: query.environment ?? '', status: query.status ?? '' }}
        sort={query.sort}
        highlightId={highlightId}
        missing={missing ? { text: MISSING_SERVER, cleanUrl: withoutServerParam(c.req.url) } : null}
        openCreate={c.req.query('create') === 'server'}
        timeZone={c.var.user!.timezone}
        canWrite={can(c.var.user, 'content.write')}
        iconSprite={iconSpriteUrl}
      />,
      { title: TITLE, subtitle: SUBTITLE },
    );
  });

  app.get('/infrastructure/:id', async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound('Server not found.');
    return renderDetail(c, id);
  });

  // Running a check and linking documents: editors and admins (403 for viewers and auditors).
  const write = allowPage('content.write');
  app.post('/infrastructure/:id/health-check', write, async (c) => {
    await checkServer(c.var.deps, c.req.param('id'), c.var.user!.id);
    return c.redirect(`/infrastructure/${c.req.param('id')}`, 303);
  });

  app.post('/infrastructure/:id/documents', write, async (c) => {
    const id = c.req.param('id');
    const { documentId, documentType } = await formValues(c);
    const parsed = checkForm(documentLinkInput, { documentId, ...(documentType ? { documentType } : {}) });
    if (!parsed.ok) {
      c.status(422);
      return renderDetail(c, id, 'Choose a document to link.');
    }
    await requireServer(c.var.deps.db, id);
    try {
      await linkDocument(c.var.deps.db, id, parsed.data.documentId, parsed.data.documentType, c.var.user);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      c.status(422);
      return renderDetail(c, id, err.message);
    }
    return c.redirect(`/infrastructure/${id}`, 303);
  });

  app.post('/infrastructure/:id/documents/:documentId/delete', write, async (c) => {
    const { id, documentId } = c.req.param();
    if (!isUuid(documentId)) throw notFound('Document not found.');
    await unlinkDocument(c.var.deps.db, id, documentId, c.var.user);
    return c.redirect(`/infrastructure/${id}`, 303);
  });

  return app;
}
