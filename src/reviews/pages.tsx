import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage, requirePageUser, requireUser } from '../auth/policy';
import { badRequest } from '../http/errors';
import { fragment, isHtmx } from '../http/htmx';
import { SPACES, itemHref, type Space } from '../knowledge/shared';
import { getItem } from '../knowledge/service';
import { decideReview, requestReview } from './commands';
import { openRequestCount, openRequests } from './queries';
import { reviewDecisionInput, reviewRequestInput } from './schemas';
import { saveRulesForm } from './rules-form';
import { getReviewPolicy } from './service';
import { OpenCountBadge, ReviewRequestsPage } from './views/ReviewRequestsPage';
import { ReviewRulesPage } from './views/ReviewRulesPage';

/**
 * The review workflow's pages (issue 22): the read page's forms (send for review, approve / request changes; each
 * answers with the item's page, htmx-boosted or not), "Review requests" with the sidebar's count, and /admin/review.
 */

/** Back to the item's page after a form (its current address): a whole new page, with htmx or without. */
async function toItem(c: Context<AppEnv>, space: Space, id: string) {
  const item = await getItem(c.var.deps.db, space, id);
  const href = item ? itemHref(space, id, item.title) : SPACES[space].path;
  if (!isHtmx(c)) return c.redirect(href, 303);
  c.header('HX-Redirect', href);
  return c.body(null, 200);
}

/** The first problem of a form in words (400, shown on the error page or as a toast). */
function parsed<T>(result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }) {
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? 'Check the form and try again.');
  return result.data;
}

function itemForms(app: Hono<AppEnv>, space: Space) {
  const { path } = SPACES[space];
  app.post(`${path}/:id/review-requests`, requirePageUser(), async (c) => {
    const body = await c.req.parseBody({ all: true });
    const ids = body.reviewerIds;
    const input = parsed(reviewRequestInput.safeParse({ reviewerIds: ids === undefined ? [] : [ids].flat() }));
    await requestReview(c.var.deps.db, c.var.user!, space, c.req.param('id'), input.reviewerIds);
    return toItem(c, space, c.req.param('id'));
  });
  app.post(`${path}/:id/reviews`, requirePageUser(), async (c) => {
    const body = await c.req.parseBody();
    const input = parsed(reviewDecisionInput.safeParse({ decision: body.decision, comment: body.comment || null }));
    await decideReview(c.var.deps.db, c.var.user!, space, c.req.param('id'), input);
    return toItem(c, space, c.req.param('id'));
  });
}

export function reviewPages() {
  const app = new Hono<AppEnv>();
  itemForms(app, 'knowledge');
  itemForms(app, 'documents');
  app.get('/review-requests', requirePageUser(), async (c) =>
    c.render(
      <ReviewRequestsPage requests={await openRequests(c.var.deps.db, c.var.user)} timeZone={c.var.user!.timezone} />,
      { title: 'Review Requests', subtitle: 'Revisions waiting for your approval' },
    ),
  );
  app.get('/review-requests/count', requireUser(), async (c) => {
    c.header('Cache-Control', 'no-store');
    return fragment(c, <OpenCountBadge count={await openRequestCount(c.var.deps.db, c.var.user)} />);
  });
  const title = { title: 'Review rules', subtitle: 'Approvals and review intervals per item type' };
  app.get('/admin/review', allowPage('review.policy'), async (c) =>
    c.render(
      <ReviewRulesPage policy={await getReviewPolicy(c.var.deps.db)} saved={c.req.query('saved') === '1'} />,
      title,
    ),
  );
  app.post('/admin/review', allowPage('review.policy'), async (c) => {
    const result = await saveRulesForm(c.var.deps.db, c.var.user!.id, await c.req.parseBody());
    if (result.ok) return c.redirect('/admin/review?saved=1', 303);
    c.status(422);
    return c.render(<ReviewRulesPage policy={await getReviewPolicy(c.var.deps.db)} error={result.error} />, title);
  });
  return app;
}
