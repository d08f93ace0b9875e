import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { can, requirePageUser } from '../auth/policy';
import { notFound } from '../http/errors';
import { pageThreads } from '../comments/service';
import { mayItem } from './item-access';
import type { Space } from './schemas';
import { isWatching, readItem } from './service';
import { reviewPanelFor } from '../reviews/commands';
import { itemHref, SPACES } from './shared';
import { ReadPage, type ReadPageProps } from './views/ReadPage';
import { listUrlIn } from './views/urls';
import { offlineStateOf } from '../offline/service';

/** A uuid in a route pattern: `/knowledge-base/new` and `/knowledge-base/deleted` are other pages. */
const ID = ':id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}';

/**
 * The list the reader came from (its filters kept) when that was this space's list, else the plain list. Browsers
 * send the Referer only within the app (Referrer-Policy same-origin), and only its query is used, after our own path.
 */
const backToList = (c: Context<AppEnv>, space: Space) =>
  listUrlIn(SPACES[space].path, c.req.header('referer')) ?? SPACES[space].path;

async function readPage(c: Context<AppEnv>, space: Space) {
  const { db } = c.var.deps;
  const user = c.var.user!;
  const draft = c.req.query('revision') === 'draft';
  const read = await readItem(db, space, c.req.param('id') ?? '', user, { draft, timeZone: user.timezone });
  if (!read) throw notFound(SPACES[space].messages.missing);
  const canonical = itemHref(space, read.item.id, read.item.title);
  // A wrong or old slug (the title changed): the current address, kept for good.
  const slug = c.req.param('slug');
  if (slug !== undefined && c.req.path !== canonical) return c.redirect(canonical, 301);
  const mayWrite = await mayItem(db, user, read.item, 'item.write');
  const review = await reviewPanelFor(db, user, space, read.newest, { mayWrite, showing: read.revision.showing });
  const props = {
    space,
    read,
    back: backToList(c, space),
    timeZone: user.timezone,
    actions: { edit: mayWrite, history: true, delete: mayWrite, share: can(user, 'item.share', read.item) },
    script: c.var.deps.assets.scripts?.reading,
    watching: await isWatching(db, read.item.id, user.id),
    comments: { threads: await pageThreads(db, user, read.item), script: c.var.deps.assets.scripts?.comments },
    review,
    serversPollMs: c.var.deps.config.serversPanelPollMs,
    offline: await offlineStateOf(db, user.id, read.item.id),
  };
  c.header('Link', `<${canonical}>; rel="canonical"`);
  c.header('Vary', 'Referer');
  return c.render(<ReadPage {...props} />, {
    title: read.item.title,
    section: SPACES[space].page.title,
    cacheKey: readPageKey(props),
  });
}

/** Everything the page shows but the content (its version and placeholder values stand for it): the same key, the same page. */
function readPageKey({ read, ...rest }: ReadPageProps): string {
  const { id, version, updatedAt, title, category, tags, templateType, isTemplate, author } = read.item;
  const { owner, ownerId, visibility } = read.item;
  const { reviewIntervalDays, reviewedAt, reviewDueAt, needsReview, reviewFlags } = read.item;
  const item = {
    id,
    version,
    updatedAt,
    title,
    category,
    tags,
    templateType,
    isTemplate,
    author,
    owner,
    ownerId,
    visibility,
    review: [reviewIntervalDays, reviewedAt, reviewDueAt, needsReview, reviewFlags],
  };
  return JSON.stringify({ ...rest, item, servers: read.servers, placeholders: read.placeholderValues });
}

/** GET /knowledge-base/{id}[/{slug}] and /documents/{id}[/{slug}]: an item's own read page. */
export function readPages() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const) {
    const { path } = SPACES[space];
    app.get(`${path}/${ID}`, requirePageUser(), (c) => readPage(c, space));
    app.get(`${path}/${ID}/:slug`, requirePageUser(), (c) => readPage(c, space));
  }
  return app;
}
