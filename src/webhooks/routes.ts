import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { webhooksApi } from './api';
import { webhookPages } from './pages';

/** Everything of outgoing webhooks: the admin API and pages (the job is jobs/webhooks.ts). */
export function webhookRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', webhooksApi());
  app.route('/', webhookPages());
  return app;
}
