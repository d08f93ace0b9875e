import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminApi } from './api';
import { adminPages } from './pages';

/** Admin approval: the JSON API and the /admin/approval page. */
export function adminRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', adminApi());
  app.route('/', adminPages());
  return app;
}
