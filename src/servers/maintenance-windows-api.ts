import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { validate } from '../http/validate';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  listMaintenanceWindows,
  maintenanceWindowInput,
} from './maintenance-windows';

const idParam = z.object({ id: z.uuid({ error: 'Not found.' }) });

/** GET|POST /api/admin/maintenance-windows, DELETE /api/admin/maintenance-windows/{id} (editors and admins). */
export function maintenanceWindowsApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/admin/maintenance-windows', allow('maintenance.manage'));
  app.use('/api/admin/maintenance-windows/*', allow('maintenance.manage'));
  app.get('/api/admin/maintenance-windows', async (c) => c.json(await listMaintenanceWindows(c.var.deps.db)));
  app.post('/api/admin/maintenance-windows', validate('json', maintenanceWindowInput), async (c) =>
    c.json(await createMaintenanceWindow(c.var.deps.db, c.req.valid('json'), c.var.user!.id), 201),
  );
  app.delete('/api/admin/maintenance-windows/:id', validate('param', idParam), async (c) => {
    await deleteMaintenanceWindow(c.var.deps.db, c.req.valid('param').id, c.var.user!.id);
    return c.body(null, 204);
  });
  return app;
}
