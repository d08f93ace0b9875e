import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { appSettings } from '../db/schema';

/** Workspace-wide sign-in rules an admin sets on /admin/users. */
export interface SecuritySettings {
  /** Everyone must turn two-factor sign-in on before doing anything else. */
  requireTwoFactor: boolean;
  /** Ask for the two-factor code after Google/OIDC sign-in too. */
  twoFactorForExternal: boolean;
}

const DEFAULTS: SecuritySettings = { requireTwoFactor: false, twoFactorForExternal: true };

/** The settings row (id 1); the defaults when the row is missing. */
export async function getSecuritySettings(db: Db): Promise<SecuritySettings> {
  const [row] = await db
    .select({ requireTwoFactor: appSettings.requireTwoFactor, twoFactorForExternal: appSettings.twoFactorForExternal })
    .from(appSettings)
    .where(eq(appSettings.id, 1))
    .limit(1);
  return row ?? DEFAULTS;
}

/** Saves the settings (an omitted field keeps its value) with an audit entry; returns them as saved. */
export async function setSecuritySettings(
  db: Db,
  actorId: string,
  input: { requireTwoFactor: boolean; twoFactorForExternal?: boolean },
): Promise<SecuritySettings> {
  return db.transaction(async (tx) => {
    const before = await getSecuritySettings(tx);
    const next = { ...before, ...dropUndefined(input) };
    await tx
      .insert(appSettings)
      .values({ id: 1, ...next })
      .onConflictDoUpdate({ target: appSettings.id, set: { ...next, updatedAt: new Date() } });
    await recordAudit(tx, {
      actorId,
      action: 'settings.security_changed',
      entityType: 'settings',
      entityId: 'security',
      details: { before, after: next },
    });
    return next;
  });
}

const dropUndefined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
