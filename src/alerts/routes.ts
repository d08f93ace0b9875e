import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { alertsApi } from './api';
import { alertPages } from './pages';

/** Everything of alerts: the rules API and page, open alerts and acknowledging them. */
export function alertRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', alertsApi());
  app.route('/', alertPages());
  return app;
}
