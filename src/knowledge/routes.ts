import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { markdownApi } from '../markdown/api';
import { objectRoutes } from '../objects/api';
import { knowledgeApi } from './api';
import { knowledgePages } from './pages';

/** Everything of the knowledge feature: JSON API, markdown preview, images, and the two list pages. */
export function knowledgeRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', knowledgeApi());
  app.route('/', markdownApi());
  app.route('/', objectRoutes());
  app.route('/', knowledgePages());
  return app;
}
