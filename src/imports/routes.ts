import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { importApi } from './api';
import { importPages } from './pages';

export { isImportUpload } from './request';

/** The import feature's routes: the JSON API and the /import pages. */
export function importRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', importApi());
  app.route('/', importPages());
  return app;
}
