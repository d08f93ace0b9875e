import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { knowledgeApi } from './api';
import { editorPages } from './editor-pages';
import { knowledgePages } from './pages';
import { readPages } from './read-pages';
import { reviewDateRoutes } from './review-date-routes';
import { serverLinksApi } from './server-links-api';
import { serversPanelRoutes } from './servers-panel-route';
import { shareApi } from './share-api';
import { sharePages } from './share-page';
import { watchRoutes } from './watch-routes';

/** Everything of the knowledge feature: JSON API, sharing, the list pages, the editor, each item's read page and share links. */
export function knowledgeRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', knowledgeApi());
  app.route('/', serverLinksApi());
  app.route('/', shareApi());
  app.route('/', reviewDateRoutes());
  app.route('/', sharePages());
  app.route('/', knowledgePages());
  app.route('/', editorPages());
  app.route('/', watchRoutes());
  app.route('/', serversPanelRoutes());
  // Last: `/{id}/{slug}` would otherwise answer for `/{id}/edit` and `/{id}/delete`.
  app.route('/', readPages());
  return app;
}
