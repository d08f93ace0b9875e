import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { aiApi } from './api';
import { aiPages } from './pages';

/** Ops AI: /ai page and /api/ai/* routes. */
export function aiRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', aiApi());
  app.route('/', aiPages());
  return app;
}
