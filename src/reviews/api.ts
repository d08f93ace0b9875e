import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { SPACES } from '../knowledge/shared';
import { decideReview, requestReview } from './commands';
import { openRequests } from './queries';
import { approvalsInput, intervalsInput, reviewDecisionInput, reviewRequestInput, withoutNulls } from './schemas';
import { getReviewPolicy, setReviewPolicy } from './service';

/**
 * The review workflow's JSON routes (issue 22): send for review, decide, a reviewer's open requests, and the admins'
 * review rules per item type. Item routes decide per item (404 when unreadable, 403 when not allowed).
 */
export function reviewApi() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const) {
    const base = SPACES[space].api;
    app.post(`${base}/:id/review-requests`, requireUser(), validate('json', reviewRequestInput), async (c) =>
      c.json(
        await requestReview(c.var.deps.db, c.var.user!, space, c.req.param('id'), c.req.valid('json').reviewerIds),
      ),
    );
    app.post(`${base}/:id/reviews`, requireUser(), validate('json', reviewDecisionInput), async (c) => {
      const { item, published } = await decideReview(
        c.var.deps.db,
        c.var.user!,
        space,
        c.req.param('id'),
        c.req.valid('json'),
      );
      return c.json({ ...item, published });
    });
  }
  app.get('/api/me/review-requests', requireUser(), async (c) => c.json(await openRequests(c.var.deps.db, c.var.user)));
  app.get('/api/admin/review-policy', allow('review.policy'), async (c) =>
    c.json((await getReviewPolicy(c.var.deps.db)).approvals),
  );
  app.put('/api/admin/review-policy', allow('review.policy'), validate('json', approvalsInput), async (c) => {
    const values = withoutNulls(c.req.valid('json'));
    return c.json((await setReviewPolicy(c.var.deps.db, c.var.user!.id, 'approvals', values)).approvals);
  });
  app.get('/api/admin/review-intervals', allow('review.policy'), async (c) =>
    c.json((await getReviewPolicy(c.var.deps.db)).intervals),
  );
  app.put('/api/admin/review-intervals', allow('review.policy'), validate('json', intervalsInput), async (c) => {
    const values = withoutNulls(c.req.valid('json'));
    return c.json((await setReviewPolicy(c.var.deps.db, c.var.user!.id, 'intervals', values)).intervals);
  });
  return app;
}
