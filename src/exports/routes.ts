import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { exportApi } from './api';
import { printPages } from './pages';

/** Export and print: item downloads, the whole-space export and the print views. Mount before knowledgeRoutes. */
export function exportRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', exportApi());
  app.route('/', printPages());
  return app;
}
