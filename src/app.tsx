import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compressResponses } from './http/compress';
import { requestId } from 'hono/request-id';
import type { AppDeps, AppEnv } from './app-env';
import { homePages, renderNotFound } from './home/pages';
import { ErrorPage } from './home/views/ErrorPage';
import { csrfGuard } from './http/csrf';
import { AppError, isApiPath, toErrorResponse, tooLarge } from './http/errors';
import { healthRoutes } from './http/health';
import { inputGuard } from './http/input-guard';
import { requestLog } from './http/request-log';
import { appSecureHeaders } from './http/secure-headers';
import { sessionCookieName } from './http/session';
import { sessionLoader } from './auth/session-loader';
import { bearerLoader } from './auth/bearer';
import { twoFactorGate } from './auth/two-factor-gate';
import { staticRoutes } from './http/static';
import { renderer, renderPage } from './ui/renderer';
import { shellSlots } from './shell-slots';
import { aiRoutes } from './ai/routes';
import { serverRoutes } from './servers/routes';
import { accountRoutes } from './auth/routes';
import { adminRoutes } from './admin/routes';
import { markdownPreviewApi } from './knowledge/preview-api';
import { objectRoutes } from './objects/api';
import { jobsPages } from './jobs/pages';
import { reportsPages } from './reports/pages';
import { knowledgeRoutes } from './knowledge/routes';
import { activityPages } from './audit/activity-pages';
import { dashboardRoutes } from './dashboard/routes';
import { searchRoutes } from './search/routes';
import { teamRoutes } from './team/routes';
import { settingsPages } from './settings/pages';
import { apiTokenRoutes } from './settings/token-pages';
import { notificationRoutes } from './notifications/api';
import { inboxRoutes } from './notifications/inbox-routes';
import { reviewRoutes } from './reviews/routes';
import { isImageUpload } from './objects/api';
import { commentRoutes } from './comments/routes';
import { runbookApi } from './runbooks/api';
import { alertRoutes } from './alerts/routes';
import { webhookRoutes } from './webhooks/routes';
import { importRoutes, isImportUpload } from './imports/routes';
import { exportRoutes } from './exports/routes';
import { offlineRoutes } from './offline/routes';
import { mcpRoutes } from './mcp/routes';
import { embeddingsApi } from './embeddings/api';

const JSON_LIMIT = 5 * 1024 * 1024;
/** Routes that read their own (larger, binary) body: image uploads and imports. */
const ownBody = (path: string) => isImageUpload(path) || isImportUpload(path);

/** The Hono app: middleware in order, then every feature's routes. Tests build it too. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(async (c, next) => {
    c.set('deps', deps);
    c.set('logger', deps.logger);
    c.set('user', null);
    c.set('sessionId', null);
    await next();
  });
  app.use(requestLog());
  app.use(appSecureHeaders());
  app.use(compressResponses());

  app.route('/', healthRoutes());
  app.route('/', staticRoutes(deps.assets.dir));

  // Image uploads carry their own (larger) limit. GET and HEAD carry no body, and asking
  // for one would build a full Request object on every read.
  app.use('*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || ownBody(c.req.path)) return next();
    return bodyLimit({
      maxSize: JSON_LIMIT,
      onError: () => {
        throw tooLarge('The request body is larger than 5 MB.');
      },
    })(c, next);
  });
  app.use(sessionLoader());
  app.use(bearerLoader());
  app.use(csrfGuard(deps.config.appOrigin, sessionCookieName(deps.config.secureCookies)));
  app.use(twoFactorGate());
  app.use(inputGuard(ownBody));
  app.use(renderer(shellSlots));

  app.route('/', homePages());
  // Feature routes (one line each; keep this list in build order).
  app.route('/', accountRoutes());
  app.route('/', adminRoutes());
  // Before knowledge: its read page's /{id}/{slug} would answer GET /knowledge-base/{id}/comments.
  app.route('/', commentRoutes());
  app.route('/', activityPages()); // before knowledgeRoutes: its /{id}/{slug} would answer /{id}/activity
  app.route('/', runbookApi()); // before serverRoutes: POST /api/servers/mentions
  app.route('/', exportRoutes()); // before knowledgeRoutes: its /{id}/{slug} would answer /{id}/print
  app.route('/', knowledgeRoutes());
  app.route('/', markdownPreviewApi());
  app.route('/', objectRoutes());
  app.route('/', jobsPages());
  app.route('/', reportsPages());
  app.route('/', dashboardRoutes());
  app.route('/', searchRoutes());
  app.route('/', teamRoutes());
  app.route('/', settingsPages());
  app.route('/', apiTokenRoutes());
  app.route('/', notificationRoutes());
  app.route('/', inboxRoutes());
  app.route('/', reviewRoutes());
  app.route('/', serverRoutes());
  app.route('/', alertRoutes());
  app.route('/', webhookRoutes());
  app.route('/', importRoutes());
  app.route('/', aiRoutes());
  app.route('/', offlineRoutes());
  app.route('/', mcpRoutes());
  app.route('/', embeddingsApi());

  app.notFound(renderNotFound);
  app.onError((err, c) => {
    const { status, body, headers } = toErrorResponse(err);
    // A 5xx we raised on purpose (model busy, asker gone) is a warning; anything unexplained is an error.
    if (status >= 500)
      c.var.logger[err instanceof AppError ? 'warn' : 'error'](
        { err, reqId: c.var.requestId, path: c.req.path },
        'request failed',
      );
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    if (isApiPath(c) || c.req.header('accept')?.includes('application/json')) return c.json(body, status);
    c.status(status);
    return renderPage(
      c,
      <ErrorPage status={status} message={body.message} />,
      { title: 'Error', bare: true },
      shellSlots,
    );
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
