import type { Environment } from '../db/schema';

/** A maintenance window as the checks read it (maintenance_windows row). */
export interface WindowRule {
  id: string;
  name: string;
  /** Null or empty: not limited to listed servers. */
  serverIds: string[] | null;
  environment: Environment | null;
  startsAt: Date;
  endsAt: Date;
  weekly: boolean;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** True while the window is open at `now`: between start and end, or (weekly) the same stretch of every later week. */
export function windowOpen(w: Pick<WindowRule, 'startsAt' | 'endsAt' | 'weekly'>, now: Date): boolean {
  const start = w.startsAt.getTime();
  const length = w.endsAt.getTime() - start;
  const t = now.getTime();
  if (t < start || length <= 0) return false;
  return w.weekly ? (t - start) % WEEK_MS < length : t < start + length;
}

/** True when the window is about this server (by list, environment, or every server when neither is set). */
export function windowAppliesTo(
  w: Pick<WindowRule, 'serverIds' | 'environment'>,
  server: { id: string; environment: Environment },
): boolean {
  if (w.serverIds?.length && !w.serverIds.includes(server.id)) return false;
  if (w.environment && w.environment !== server.environment) return false;
  return true;
}

/** The first window open now for this server, or null. */
export function windowCovering(
  windows: WindowRule[],
  server: { id: string; environment: Environment },
  now: Date,
): WindowRule | null {
  return windows.find((w) => windowOpen(w, now) && windowAppliesTo(w, server)) ?? null;
}
