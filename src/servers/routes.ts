import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { serverApi } from './api';
import { serverChecksApi } from './checks-api';
import { maintenanceWindowsApi } from './maintenance-windows-api';
import { maintenanceWindowPages } from './maintenance-windows-pages';
import { serverPages } from './pages';
import { slaApi } from './sla-api';
import { slaPages } from './sla-pages';
import { uptimeApi } from './uptime-api';

/** Everything of the infrastructure feature: /api/servers, /api/tokens, /infrastructure pages. */
export function serverRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', uptimeApi());
  app.route('/', serverApi());
  app.route('/', serverChecksApi());
  app.route('/', slaApi());
  app.route('/', slaPages());
  app.route('/', serverPages());
  app.route('/', maintenanceWindowsApi());
  app.route('/', maintenanceWindowPages());
  return app;
}
