import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { commentsApi } from './api';
import { commentPagesRoutes } from './pages';

/** Everything of the comments feature: the JSON API and the read page's forms. */
export function commentRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', commentsApi());
  app.route('/', commentPagesRoutes());
  return app;
}
