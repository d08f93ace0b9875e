import { z } from 'zod';
import { roles } from '../db/schema/values';

/** The user id in /api/admin/{approve,reject}-user/:id and /api/admin/users/:id. */
export const userIdParam = z.object({ id: z.uuid({ error: 'Invalid user id' }) });

const role = z.enum(roles, { error: 'role must be admin, editor, viewer or auditor.' });

/** POST /api/admin/approve-user/:id: the role the account gets (editor unless told). */
export const approveInput = z.object({ role: role.default('editor') });

/** PUT /api/admin/users/:id: a new role, a new status, or both. */
export const accountChangeInput = z
  .object({
    role: role.optional(),
    status: z.enum(['active', 'deactivated'], { error: 'status must be active or deactivated.' }).optional(),
  })
  .refine((v) => v.role !== undefined || v.status !== undefined, { error: 'Give a role or a status to change.' });

/** PUT /api/admin/settings. */
export const securitySettingsInput = z.object({
  requireTwoFactor: z.boolean({ error: 'requireTwoFactor must be true or false.' }),
  twoFactorForExternal: z.boolean({ error: 'twoFactorForExternal must be true or false.' }).optional(),
});
