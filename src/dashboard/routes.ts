import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { dashboardApi } from './api';
import { dashboardPages } from './pages';

/** The dashboard page (signed-in "/"), its fragments and /api/analytics/stats. */
export function dashboardRoutes() {
  return new Hono<AppEnv>().route('/', dashboardApi()).route('/', dashboardPages());
}
