import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { knowledgeApi } from './api';
import { editorPages } from './editor-pages';
import { knowledgePages } from './pages';
import { readPages } from './read-pages';

/** Everything of the knowledge feature: JSON API, the list pages, the editor and each item's read page. */
export function knowledgeRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', knowledgeApi());
  app.route('/', knowledgePages());
  app.route('/', editorPages());
  // Last: `/{id}/{slug}` would otherwise answer for `/{id}/edit` and `/{id}/delete`.
  app.route('/', readPages());
  return app;
}
