import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { reviewApi } from './api';
import { reviewPages } from './pages';

/** Everything of the review workflow: its JSON API, the review forms, "Review requests" and the admins' rules page. */
export function reviewRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', reviewApi());
  app.route('/', reviewPages());
  return app;
}
