/** Read model: joins settings (who receives the report, their timezone and team) and jobs (the last run). */
import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { DEFAULT_TIMEZONE } from '../db/schema';
import { lastSuccessfulRunStart } from '../jobs/service';
import { flaggedDocuments, overdueReviews, runbooksOf } from './documents';
import {
  changedSince,
  counts,
  highUsage,
  offline,
  offlineLong,
  SERVER_ROWS,
  staleMetrics,
  withoutRunbook,
} from './fleet';
import type { FleetReport, HealthReport } from './types';
import { slaMissed, uptimeByEnvironment } from './uptime';

export { DOCUMENT_ROWS } from './documents';
export { HIGH_USAGE_PERCENT, OFFLINE_LONG_MS, SERVER_ROWS, STALE_METRICS_MS } from './fleet';
export { checkedReportTeam, reportTeamOf, reportTeams } from './teams';
export type * from './types';

/** The job whose last successful run marks "since the last report". */
export const HEALTH_REPORT_JOB = 'health-report';
const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What a report covers: `team`'s servers (null: every server), "now", and the start of "changed since". */
export interface ReportScope {
  now?: Date;
  since?: Date;
  team?: string | null;
}

/** The fleet summary; "changed" covers the time since the last successful report run (or the last 24 hours). */
export async function buildFleetReport(db: Db, opts: ReportScope = {}): Promise<FleetReport> {
  const now = opts.now ?? new Date();
  const team = opts.team ?? null;
  const since =
    opts.since ?? (await lastSuccessfulRunStart(db, HEALTH_REPORT_JOB)) ?? new Date(now.getTime() - DEFAULT_WINDOW_MS);
  return {
    generatedAt: now,
    since,
    team,
    ...(await counts(db, team)),
    changed: await changedSince(db, since, team),
    down: await offline(db, team, { rows: SERVER_ROWS }),
    offlineLong: await offlineLong(db, now, team),
    highUsage: await highUsage(db, team),
    staleMetrics: await staleMetrics(db, now, team),
    withoutRunbook: await withoutRunbook(db, team),
    uptime: await uptimeByEnvironment(db, now, team),
    slaMissed: await slaMissed(db, team),
  };
}

/**
 * The fleet report with what `reader` may read: the runbooks of each server that is down or changed state, the
 * documents a server change flagged and the overdue reviews (of the fleet's team: documents linked to its servers).
 */
export async function withReaderSections(db: Db, fleet: FleetReport, reader: Actor): Promise<HealthReport> {
  const ids = [...new Set([...fleet.down, ...fleet.changed, ...fleet.offlineLong].map((s) => s.id))];
  return {
    ...fleet,
    runbooks: await runbooksOf(db, ids, reader),
    flagged: await flaggedDocuments(db, reader, fleet.team),
    overdue: await overdueReviews(db, reader, fleet.team, fleet.generatedAt),
  };
}

/** The whole report as `reader` sees it. */
export async function buildHealthReport(db: Db, reader: Actor, opts: ReportScope = {}): Promise<HealthReport> {
  return withReaderSections(db, await buildFleetReport(db, opts), reader);
}

export interface ReportRecipient {
  id: string;
  /** Their role: which documents their copy lists. */
  role: string;
  email: string;
  firstName: string | null;
  timezone: string;
  /** The team whose servers their copy covers (null: every server). */
  reportTeam: string | null;
}

/** Active admins, and active users who switched on health reports in their settings (timezone: saved, else the sign-in default). */
export function reportRecipients(db: Db): Promise<ReportRecipient[]> {
  return queryRows<ReportRecipient>(
    db,
    sql`select u.id, u.role, u.email, u.first_name as "firstName", coalesce(p.timezone, ${DEFAULT_TIMEZONE}) as timezone,
          nullif(p.report_team, '') as "reportTeam"
        from users u left join user_preferences p on p.user_id = u.id
        where u.account_status = 'active' and (u.role = 'admin' or p.health_reports = true)
        order by u.email`,
  );
}
