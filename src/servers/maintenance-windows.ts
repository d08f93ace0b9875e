import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { maintenanceWindows, servers } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { announceOfflineLeavingWindow } from './health';
import { windowOpen, type WindowRule } from './maintenance-window';
import { ENVIRONMENTS } from './shared';

/**
 * Maintenance windows (issue 24): planned stretches, one-off or weekly, during which checks run but nobody is
 * alerted. Creating one that is open now puts the servers it covers in it at once (servers.maintenance_window_id);
 * deleting it takes them out (the foreign key sets null). The health round keeps the column current afterwards.
 */

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Years a window may start or end in: before 1970 or past 9999 is a typing error (and beyond what a date column keeps). */
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;

/** An ISO 8601 date and time with Z or an offset ("2026-11-27T10:00:00Z"); "1", "tomorrow" and 2026-02-30 are not. */
const instant = (label: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is required.` : `${label} must be a date and time (ISO 8601).`,
    })
    .pipe(z.iso.datetime({ offset: true, error: `${label} must be a date and time (ISO 8601).` }))
    .transform((v) => new Date(v))
    .refine(
      (d) => d.getUTCFullYear() >= FIRST_YEAR && d.getUTCFullYear() <= LAST_YEAR,
      `${label} must be between ${FIRST_YEAR} and ${LAST_YEAR}.`,
    );

/** POST /api/admin/maintenance-windows. No serverIds and no environment: every server. */
export const maintenanceWindowInput = z
  .object({
    name: z
      .string({ error: 'name is required.' })
      .trim()
      .min(1, 'name is required.')
      .max(100, 'name must be at most 100 characters.'),
    serverIds: z
      .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must be a list of server ids.' })
      .max(1000, 'serverIds may name at most 1000 servers.')
      .default([]),
    environment: z
      .enum(ENVIRONMENTS, { error: 'environment must be production, staging or development.' })
      .nullish()
      .transform((v) => v ?? null),
    startsAt: instant('startsAt'),
    endsAt: instant('endsAt'),
    weekly: z.boolean({ error: 'weekly must be true or false.' }).default(false),
  })
  .superRefine((w, ctx) => {
    // Runs on the raw values too when a field is already wrong.
    if (!(w.startsAt instanceof Date) || !(w.endsAt instanceof Date)) return;
    const length = w.endsAt.getTime() - w.startsAt.getTime();
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'endsAt must be after startsAt.' });
    else if (w.weekly && length >= WEEK_MS)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'A weekly window must be shorter than a week.' });
  });
export type MaintenanceWindowInput = z.infer<typeof maintenanceWindowInput>;

export interface MaintenanceWindow {
  id: string;
  name: string;
  serverIds: string[];
  environment: string | null;
  startsAt: string;
  endsAt: string;
  weekly: boolean;
  /** Open at the time of the answer. */
  openNow: boolean;
  createdAt: string;
}

type Row = typeof maintenanceWindows.$inferSelect;

const asRule = (r: Row): WindowRule => ({
  id: r.id,
  name: r.name,
  serverIds: r.serverIds,
  environment: r.environment,
  startsAt: new Date(r.startsAt),
  endsAt: new Date(r.endsAt),
  weekly: r.weekly,
});

const toWindow = (r: Row, now: Date): MaintenanceWindow => ({
  id: r.id,
  name: r.name,
  serverIds: r.serverIds ?? [],
  environment: r.environment,
  startsAt: new Date(r.startsAt).toISOString(),
  endsAt: new Date(r.endsAt).toISOString(),
  weekly: r.weekly,
  openNow: windowOpen(asRule(r), now),
  createdAt: new Date(r.createdAt).toISOString(),
});

export async function listMaintenanceWindows(db: Db, now = new Date()): Promise<MaintenanceWindow[]> {
  const rows = await db.select().from(maintenanceWindows).orderBy(desc(maintenanceWindows.startsAt));
  return rows.map((r) => toWindow(r, now));
}

/** The servers a window names must exist (400 naming the first that does not). */
async function checkServers(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const found = new Set(
    (await db.select({ id: servers.id }).from(servers).where(inArray(servers.id, ids))).map((s) => s.id),
  );
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw badRequest(`serverIds: ${missing} is not a server.`, 'validation_error');
}

/** Puts the servers an open window covers into it (those not already in another window). */
async function enterWindow(db: Db, w: Row): Promise<number> {
  const rows = await db
    .update(servers)
    .set({ maintenanceWindowId: w.id })
    .where(
      and(
        isNull(servers.maintenanceWindowId),
        w.serverIds?.length ? inArray(servers.id, w.serverIds) : undefined,
        w.environment ? eq(servers.environment, w.environment) : undefined,
      ),
    )
    .returning({ id: servers.id });
  return rows.length;
}

export async function createMaintenanceWindow(
  db: Db,
  input: MaintenanceWindowInput,
  actorId: string,
  now = new Date(),
): Promise<MaintenanceWindow> {
  const serverIds = [...new Set(input.serverIds)];
  await checkServers(db, serverIds);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(maintenanceWindows)
      .values({ ...input, serverIds: serverIds.length ? serverIds : null, createdBy: actorId })
      .returning();
    const window = toWindow(row, now);
    const covered = window.openNow ? await enterWindow(tx, row) : 0;
    await recordAudit(tx, {
      actorId,
      action: 'maintenance_window.created',
      entityType: 'maintenance_window',
      entityId: row.id,
      details: { ...window, serversNowInMaintenance: covered },
    });
    return window;
  });
}

/** Deletes a window; servers in it leave it (ON DELETE SET NULL) and are alerted again from the next check. */
export async function deleteMaintenanceWindow(db: Db, id: string, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await announceOfflineLeavingWindow(tx, id);
    const [row] = await tx.delete(maintenanceWindows).where(eq(maintenanceWindows.id, id)).returning();
    if (!row) throw notFound('Maintenance window not found.');
    await recordAudit(tx, {
      actorId,
      action: 'maintenance_window.deleted',
      entityType: 'maintenance_window',
      entityId: id,
      details: { name: row.name },
    });
  });
}

/** Servers by name, for the page's picker. */
export const serverChoices = (db: Db) =>
  db.select({ id: servers.id, name: servers.name }).from(servers).orderBy(sql`lower(${servers.name})`);
