import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { knowledgeApi } from './api';
import { knowledgePages } from './pages';

/** Everything of the knowledge feature: JSON API and the list pages. */
export function knowledgeRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', knowledgeApi());
  app.route('/', knowledgePages());
  return app;
}
