import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser, requireUser } from '../auth/policy';
import { fragment, isHtmx } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { withServerLinks } from './linked-servers';
import { markReviewed, mayMarkReviewed } from './review-dates';
import { itemHref, SPACES } from './shared';
import { ReviewStatus } from './views/ReviewDate';

/**
 * "Mark as reviewed" (issue 22): `POST /api/{base}/{id}/mark-reviewed` answers the item; the read page's form posts
 * to `/{path}/{id}/mark-reviewed` and gets its review line back (htmx) or the page again (303).
 * Viewers reach these too (an owner may mark their own item reviewed); markReviewed decides per item.
 */
export function reviewDateRoutes() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const) {
    const { api, path } = SPACES[space];
    app.post(`${api}/:id/mark-reviewed`, requireUser(), async (c) =>
      c.json(
        await withServerLinks(c.var.deps.db, await markReviewed(c.var.deps.db, space, c.req.param('id'), c.var.user)),
      ),
    );
    app.post(`${path}/:id/mark-reviewed`, requirePageUser(), async (c) => {
      const { db } = c.var.deps;
      const user = c.var.user!;
      const item = await markReviewed(db, space, c.req.param('id'), user);
      if (!isHtmx(c)) return c.redirect(itemHref(space, item.id, item.title), 303);
      const next = item.reviewIntervalDays
        ? `${item.title} is next due for review in ${item.reviewIntervalDays} days.`
        : `${item.title} no longer needs review.`;
      triggerToast(c, 'Marked as reviewed', next);
      const canMark = await mayMarkReviewed(db, user, item);
      return fragment(c, <ReviewStatus space={space} item={item} timeZone={user.timezone} canMark={canMark} />);
    });
  }
  return app;
}
