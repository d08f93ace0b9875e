import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { serverApi } from './api';
import { serverPages } from './pages';

/** Everything of the infrastructure feature: /api/servers, /api/tokens, /infrastructure pages. */
export function serverRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', serverApi());
  app.route('/', serverPages());
  return app;
}
