import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { authApi } from './api';
import { oidcRoutes } from './oidc-routes';
import { authPages } from './pages';
import { twoFactorApi } from './two-factor-api';
import { twoFactorPages } from './two-factor-pages';

/** Accounts and access: sign-in pages, the auth API, and Google/OIDC. */
export function accountRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', authApi());
  app.route('/', authPages());
  app.route('/', oidcRoutes());
  app.route('/', twoFactorApi());
  app.route('/', twoFactorPages());
  return app;
}
