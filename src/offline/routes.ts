import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { offlineApi } from './api';
import { offlinePages } from './pages';
import { workerRoutes } from './worker-route';

/** The offline runbook pack (issue 25): its API, /offline and the Keep offline forms, /sw.js and the manifest. */
export function offlineRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', workerRoutes());
  app.route('/', offlineApi());
  app.route('/', offlinePages());
  return app;
}
