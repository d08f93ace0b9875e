import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { badRequest, forbidden, unauthorized, zodErrorBody } from '../http/errors';
import { allow, authorize, customGuard } from '../auth/policy';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { checkNewServer, checkServer, deleteServer, updateServer, type ServerActor } from './commands';
import { displayNameOf } from '../auth/service';
import { buildDocumentFor } from '../runbooks/service';
import { cachedServerList } from './list-cache';
import { serverPage } from './list-page';
import { asksForPage, serverPageQuery } from './list-query';
import { documentLinkInput, metricsInput, serverFilters, serverInput, tokenInput, type MetricsInput } from './schemas';
import {
  createServer,
  isUuid,
  linkDocument,
  listServerDocuments,
  listServers,
  requireServer,
  unlinkDocument,
  updateMetrics,
} from './service';
import { createApiToken, listApiTokens, revokeApiToken, verifyApiToken } from './tokens';

const actor = (c: Context<AppEnv>) => c.var.user?.id ?? null;
/** The actor of a server change; one who came with an API token shows as "an agent" on the flags it raises. */
const serverActor = (c: Context<AppEnv>): ServerActor => ({ id: actor(c), viaToken: !!c.var.tokenScope });

/** The refusals of an agent token (a session may do both). */
export const TOKEN_SERVER_REFUSED = 'This token may not push metrics for this server.';
export const TOKEN_MAINTENANCE_REFUSED = 'An agent may not set maintenance: an admin sets it on the server.';

/**
 * Metrics accept a session or `Authorization: Bearer <api token>` (agents): a revoked token is refused (401), and a
 * token only reports for the servers it names (403).
 */
const sessionOrToken = (): MiddlewareHandler<AppEnv> =>
  customGuard('content.write', async (c, next) => {
    const header = c.req.header('authorization');
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const token = match ? await verifyApiToken(c.var.deps.db, match[1]) : null;
      if (!token) throw unauthorized('Invalid or revoked API token.');
      if (!token.serverIds.includes(c.req.param('id') ?? '')) throw forbidden(TOKEN_SERVER_REFUSED);
      return next();
    }
    // A signed-in person pushes metrics (and sets maintenance) as an editor action.
    authorize(c.var.user, 'content.write');
    return next();
  });

/** Maintenance suspends a server's checks, so only a signed-in user sets it (an agent could hide an outage). */
function refuseAgentMaintenance(c: Context<AppEnv>, input: MetricsInput): void {
  if (input.status === 'maintenance' && c.req.header('authorization')) throw forbidden(TOKEN_MAINTENANCE_REFUSED);
}

/** The whole list from the cache: 304 on a matching ETag, the stored gzip when the client takes it. */
async function sendServerList(c: Context<AppEnv>): Promise<Response> {
  const body = await cachedServerList(c.var.deps.db);
  const headers: Record<string, string> = {
    ETag: body.etag,
    'Cache-Control': 'private, no-cache',
    Vary: 'Accept-Encoding, Cookie',
  };
  if (c.req.header('if-none-match') === body.etag) return new Response(null, { status: 304, headers });
  headers['Content-Type'] = 'application/json';
  if (/\bgzip\b(?!\s*;\s*q=0(?:\.0+)?\b)/i.test(c.req.header('accept-encoding') ?? '')) {
    return new Response(new Uint8Array(body.gzip), { headers: { ...headers, 'Content-Encoding': 'gzip' } });
  }
  return new Response(body.json, { headers });
}

/** documentId from the JSON body or ?documentId= (DELETE). */
async function documentIdOf(c: Context<AppEnv>): Promise<string> {
  let id = c.req.query('documentId');
  if (!id) {
    const text = await c.req.text();
    try {
      id = text.trim() ? (JSON.parse(text) as { documentId?: string }).documentId : undefined;
    } catch {
      throw badRequest('The body is not valid JSON.');
    }
  }
  if (!id || !isUuid(id)) throw badRequest('documentId must be a document id.');
  return id;
}

function serversApi() {
  const app = new Hono<AppEnv>();
  // Adding, editing, deleting servers, their document links and running a check: editors and admins (403 otherwise).
  const write = allow('content.write');
  app.put('/:id/metrics', sessionOrToken(), validate('json', metricsInput), async (c) => {
    const input = c.req.valid('json');
    refuseAgentMaintenance(c, input);
    return c.json(await updateMetrics(c.var.deps.db, c.req.param('id'), input, actor(c)));
  });
  app.use('*', requireUser());
  // ?page=, ?pageSize=, ?sort= or ?columns=: one page; GET /api/servers alone still answers the whole array.
  app.get('/', async (c) => {
    const raw = c.req.query();
    if (asksForPage(raw)) {
      const query = serverPageQuery.safeParse(raw);
      if (!query.success) return c.json(zodErrorBody(query.error), 400);
      return c.json(await serverPage(c.var.deps.db, query.data));
    }
    // The unpaged list ignores a filter value it does not know (serverFilters catches each), as it always did.
    const filters = serverFilters.parse(raw);
    if (filters.q || filters.environment || filters.status || filters.limit)
      return c.json(await listServers(c.var.deps.db, filters));
    return sendServerList(c);
  });
  // The row is committed first; its first check then has at most CREATE_CHECK_WAIT_MS to make the answer.
  app.post('/', write, validate('json', serverInput), async (c) => {
    const server = await createServer(c.var.deps.db, c.req.valid('json'), actor(c));
    return c.json(await checkNewServer(c.var.deps, server, actor(c)), 201);
  });
  app.get('/:id', async (c) => {
    const server = await requireServer(c.var.deps.db, c.req.param('id'));
    return c.json({ ...server, documents: await listServerDocuments(c.var.deps.db, server.id, c.var.user) });
  });
  // The build form pre-filled from the record, for a new build document: only those who may create documents.
  app.get('/:id/build-document', write, async (c) => {
    const server = await requireServer(c.var.deps.db, c.req.param('id'));
    return c.json(buildDocumentFor(server, displayNameOf(c.var.user!)));
  });
  app.put('/:id', write, validate('json', serverInput), async (c) =>
    c.json(await updateServer(c.var.deps.db, c.req.param('id'), c.req.valid('json'), serverActor(c))),
  );
  app.delete('/:id', write, async (c) => {
    await deleteServer(c.var.deps.db, c.req.param('id'), serverActor(c));
    return c.json({ message: 'Server deleted successfully.' });
  });
  app.post('/:id/health-check', write, async (c) => {
    return c.json(await checkServer(c.var.deps, c.req.param('id'), actor(c)));
  });
  app.get('/:id/documents', async (c) => {
    const server = await requireServer(c.var.deps.db, c.req.param('id'));
    return c.json(await listServerDocuments(c.var.deps.db, server.id, c.var.user));
  });
  app.post('/:id/documents', write, validate('json', documentLinkInput), async (c) => {
    const { documentId, documentType } = c.req.valid('json');
    return c.json(await linkDocument(c.var.deps.db, c.req.param('id'), documentId, documentType, c.var.user), 201);
  });
  app.delete('/:id/documents', write, async (c) => {
    await unlinkDocument(c.var.deps.db, c.req.param('id'), await documentIdOf(c), c.var.user);
    return c.json({ message: 'Document unlinked.' });
  });
  return app;
}

function tokensApi() {
  const app = new Hono<AppEnv>();
  app.use('*', allow('tokens.manage'));
  app.get('/', async (c) => c.json(await listApiTokens(c.var.deps.db)));
  app.post('/', validate('json', tokenInput), async (c) =>
    c.json(await createApiToken(c.var.deps.db, c.req.valid('json'), c.var.user!.id), 201),
  );
  app.delete('/:id', async (c) => {
    await revokeApiToken(c.var.deps.db, c.req.param('id'), c.var.user!.id);
    return c.json({ message: 'Token revoked.' });
  });
  return app;
}

/** /api/servers… and /api/tokens… (issue #6). */
export function serverApi() {
  const app = new Hono<AppEnv>();
  app.route('/api/servers', serversApi());
  app.route('/api/tokens', tokensApi());
  return app;
}
