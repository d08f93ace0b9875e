import { z } from 'zod';

const target = z
  .number({ error: 'A target is a percentage from 0 to 100, or null to remove it.' })
  .min(0, { error: 'A target is a percentage from 0 to 100.' })
  .max(100, { error: 'A target is a percentage from 0 to 100.' })
  .nullable()
  .optional();

/** PUT /api/admin/sla-targets: { environment: target percent | null }, only the environments to change. */
export const slaTargetsInput = z.strictObject(
  { production: target, staging: target, development: target },
  { error: 'Give targets by environment: production, staging or development.' },
);

/** /api/servers/{id}/uptime: the id must be a uuid (400 otherwise). */
export const serverIdParam = z.object({ id: z.uuid({ error: 'Invalid server id.' }) });
