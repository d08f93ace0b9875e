import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from '../auth/policy';
import { LandingPage } from './views/LandingPage';
import { NotFoundPage } from './views/NotFoundPage';

/** The public home: the landing page when signed out. Signed-in "/" belongs to the dashboard. */
export function homePages() {
  const app = new Hono<AppEnv>();
  app.get('/', publicRoute(), async (c, next) => {
    if (c.var.user) return next();
    return c.render(<LandingPage />, { title: 'Ops Hub', bare: true });
  });
  return app;
}

/** Any unknown path: the 404 page (HTML) or a JSON 404 under /api. */
export function renderNotFound(c: Parameters<Parameters<Hono<AppEnv>['notFound']>[0]>[0]) {
  if (c.req.path.startsWith('/api/')) return c.json({ message: 'Not found.', code: 'not_found' }, 404);
  c.status(404);
  return c.render(<NotFoundPage signedIn={!!c.var.user} />, { title: '404 Page Not Found', bare: true });
}
