import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { forbidden, notFound, unauthorized } from '../http/errors';
import { markRoute, routeMark } from '../http/route-marks';
import type { Role } from '../db/schema/values';

export { publicRoute } from '../http/route-marks';

/**
 * Authorisation in one place (ARCHITECTURE.md § API conventions): `can()` answers, `authorize()` refuses,
 * and the route guards below (`allow`, `allowPage`, `publicRoute`) mark every route with its decision so a
 * test can walk the mounted routes. Roles are rows of ROLE_GRANTS; item permissions (visibility, owner,
 * shares) are the item rules in itemGrant.
 */

/** Everything a request may ask permission for. */
export const ACTIONS = [
  /** Read the shared workspace, search, use Ops AI, keep one's own settings and personal tokens (every role). */
  'app.use',
  /** Create, edit and delete knowledge items, documents, servers and team entries; run checks; upload images. */
  'content.write',
  /** Read the audit trail. */
  'audit.read',
  /** Manage accounts (/admin/users: roles, deactivation, 2FA resets) and workspace security settings. */
  'users.manage',
  /** Approve or reject registrations (/admin/approval, /api/admin/*). */
  'user.approve',
  /** See the scheduled jobs and failed e-mail (/admin/jobs). */
  'jobs.read',
  /** Run a job now. */
  'jobs.run',
  /** List, create and revoke metrics API tokens. */
  'tokens.manage',
  /** See health checks' raw socket/TLS errors (others see the plain reason). */
  'health.detail',
  /** See deleted knowledge items and documents, their history, and restore them. */
  'knowledge.restore',
  /** Make an uploaded image public or private. */
  'image.visibility',
  /** Read one knowledge item or document (its visibility, owner and the reader's share decide). */
  'item.read',
  /** Edit or delete one knowledge item or document. */
  'item.write',
  /** Change an item's visibility, owner and shares. */
  'item.share',
  /** Comment on one item, reply, resolve threads (whoever may read the item: viewers too; issue 22). */
  'item.comment',
  /** Edit or delete anyone's comment (admins); authors edit and delete their own. */
  'comment.moderate',
  /** Review one item: be asked to, approve it or request changes (editors and admins who may read it). */
  'item.review',
  /** Set per item type how many approvals publish an item and its default review interval. */
  'review.policy',
  /** Keep the alert rules (who hears about which servers, how) and see failed alert deliveries (issue 24). */
  'alerts.manage',
  /** Acknowledge an open alert (stops its repeats): editors and admins, and the people its rule alerts. */
  'alert.ack',
  /** Plan maintenance windows (checks run, nobody is alerted): those who may set a server's status by hand. */
  'maintenance.manage',
  /** Set each environment's availability (SLA) target. */
  'sla.manage',
  /** Import .md files and zips as new items (issue 25): those who write content. */
  'data.import',
  /** Read an import's progress and report: its creator (own) and admins. */
  'import.read',
  /** Export the whole space (every item the list's filters name) as one zip. */
  'data.export',
  /** Register outgoing webhooks, see their deliveries, re-send one. */
  'webhooks.manage',
] as const;
export type Action = (typeof ACTIONS)[number];

export type { Role };
export { roles as ROLES } from '../db/schema/values';

/**
 * `any`: on every resource; `own`: only where resource.ownerId is the user; `item`: by the item rules below;
 * `recipient`: only where the user is one of resource.recipientIds.
 */
type Grant = 'any' | 'own' | 'item' | 'recipient';

const READER: Partial<Record<Action, Grant>> = {
  'app.use': 'any',
  'item.read': 'item',
  'item.write': 'item',
  'item.comment': 'item',
  'alert.ack': 'recipient',
};
const EDITOR: Partial<Record<Action, Grant>> = {
  ...READER,
  'content.write': 'any',
  'item.review': 'item',
  'image.visibility': 'own',
  'item.share': 'own',
  'alert.ack': 'any',
  'maintenance.manage': 'any',
  'data.import': 'any',
  'import.read': 'own',
};

const ROLE_GRANTS: Record<Role, Partial<Record<Action, Grant>>> = {
  admin: Object.fromEntries(ACTIONS.map((a) => [a, 'any'])),
  editor: EDITOR,
  viewer: READER,
  auditor: { ...READER, 'audit.read': 'any' },
};

/** Who asks: any signed-in user (CurrentUser fits), or null when signed out. */
export type Actor = { id: string; role: string } | null | undefined;

/** What the action is about, when it matters. */
export interface Resource {
  ownerId?: string | null;
  /** Items: who may read it. Missing means everyone. */
  visibility?: 'everyone' | 'restricted';
  /** Items: the asking user's own share of it, if any. */
  share?: 'read' | 'write' | null;
  /** Alerts: the users its rule alerts. */
  recipientIds?: string[];
}

/** The one refusal text for a role that may not. */
export const DENIED_MESSAGE = 'You do not have permission to access this page.';

// An unknown role (a value written outside the app) gets the least: a viewer's grants.
const grantsOf = (role: string) => ROLE_GRANTS[role as Role] ?? ROLE_GRANTS.viewer;

/**
 * The item rules: an item visible to everyone is read by every role and written by roles that write content;
 * a restricted one only by its owner (writing if their role writes content) and the users it is shared with
 * (a write share lets that user edit this item, whatever their role).
 */
function itemGrant(user: { id: string; role: string }, action: Action, item: Resource): boolean {
  const writer = grantsOf(user.role)['content.write'] === 'any';
  const owner = !!item.ownerId && item.ownerId === user.id;
  const reads = item.visibility !== 'restricted' || owner || !!item.share;
  if (action === 'item.read' || action === 'item.comment') return reads;
  if (action === 'item.review') return reads && writer;
  if (action === 'item.write')
    return item.visibility === 'restricted' ? (owner && writer) || item.share === 'write' : writer;
  return false;
}

/** May this user do this action (to this resource)? Signed-out visitors may do nothing here. */
export function can(user: Actor, action: Action, resource?: Resource): boolean {
  if (!user) return false;
  const grant = grantsOf(user.role)[action];
  if (grant === 'any') return true;
  if (grant === 'item') return itemGrant(user, action, resource ?? {});
  if (grant === 'recipient') return !!resource?.recipientIds?.includes(user.id);
  return grant === 'own' && !!resource?.ownerId && resource.ownerId === user.id;
}

/**
 * Throws unless `can()`: 401 when signed out, 403 with DENIED_MESSAGE, or 404 with `notFoundMessage`
 * when the user must not even learn that the resource exists.
 */
export function authorize(
  user: Actor,
  action: Action,
  resource?: Resource,
  opts: { notFoundMessage?: string } = {},
): void {
  if (can(user, action, resource)) return;
  if (!user) throw unauthorized();
  if (opts.notFoundMessage) throw notFound(opts.notFoundMessage);
  throw forbidden(DENIED_MESSAGE);
}

/** What a route guard decided for: an action, or a page anyone may open. */
export type RouteDecision = Action | 'public';

const marked = (action: Action, handler: MiddlewareHandler<AppEnv>) => markRoute(action, handler);
const isDecision = (mark: string | undefined): mark is RouteDecision =>
  mark === 'public' || (ACTIONS as readonly string[]).includes(mark ?? '');

/** The decision a route handler carries (undefined for handlers that are not policy guards). */
export const routeDecision = (handler: unknown): RouteDecision | undefined => {
  const mark = routeMark(handler);
  return isDecision(mark) ? mark : undefined;
};

/** A route's own answer to a refusal (e.g. an HTML fragment or an Access Denied card). */
export type OnDenied = (c: Context<AppEnv>, status: 401 | 403) => Response | Promise<Response>;

/** API guard: 401 signed out, 403 unless the user may do `action`. */
export const allow = (action: Action, onDenied?: OnDenied): MiddlewareHandler<AppEnv> =>
  marked(action, async (c, next) => {
    if (!can(c.var.user, action)) {
      const status = c.var.user ? 403 : 401;
      if (onDenied) return onDenied(c, status);
      authorize(c.var.user, action);
    }
    await next();
  });

/** Page guard: signed-out visitors go to /login and come back to the deep link; 403 unless the user may. */
export const allowPage = (action: Action, onDenied?: OnDenied): MiddlewareHandler<AppEnv> =>
  marked(action, async (c, next) => {
    if (!c.var.user) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
    }
    if (!can(c.var.user, action)) {
      if (onDenied) return onDenied(c, 403);
      authorize(c.var.user, action);
    }
    await next();
  });

/** A route guard that decides `action` its own way (e.g. a bearer token besides the session). */
export const customGuard = (action: Action, guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  marked(action, guard);

/** API guard for any signed-in account: policy action `app.use` (401 when signed out). */
export const requireUser = (): MiddlewareHandler<AppEnv> => allow('app.use');

/** Page guard for any signed-in account: signed-out visitors go to /login and come back to the deep link. */
export const requirePageUser = (): MiddlewareHandler<AppEnv> => allowPage('app.use');
