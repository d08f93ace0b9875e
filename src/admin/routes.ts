import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminApi } from './api';
import { auditApi } from './audit-api';
import { auditPages } from './audit-pages';
import { adminPages } from './pages';
import { adminUsersApi } from './users-api';
import { adminUsersPages } from './users-pages';

/** Admin: approvals, accounts and security settings, the audit trail (JSON API and pages). */
export function adminRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', adminApi());
  app.route('/', adminUsersApi());
  app.route('/', auditApi());
  app.route('/', adminPages());
  app.route('/', adminUsersPages());
  app.route('/', auditPages());
  return app;
}
