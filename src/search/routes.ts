import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { searchApi } from './api';
import { searchPages } from './pages';

/** /api/search, the /search results page and the header list fragment. */
export function searchRoutes() {
  return new Hono<AppEnv>().route('/', searchApi()).route('/', searchPages());
}
