import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { teamApi } from './api';
import { teamPages } from './pages';

/** The team directory: /team and the spec's team calls. */
export function teamRoutes() {
  return new Hono<AppEnv>().route('/', teamApi()).route('/', teamPages());
}
