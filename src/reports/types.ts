import type { Environment, ServerStatus } from '../db/schema';
import type { ReviewFlagField } from '../runbooks/shared';

export interface ServerRef {
  id: string;
  name: string;
  environment: Environment;
  status: ServerStatus;
}
export interface StateChange extends ServerRef {
  from: ServerStatus | null;
  changes: number;
  lastChangedAt: Date;
}
export interface OfflineServer extends ServerRef {
  offlineSince: Date | null;
  teamOwner: string | null;
}
export interface HighUsageServer extends ServerRef {
  cpu: number;
  memory: number;
  disk: number;
}
export interface StaleServer extends ServerRef {
  metricsUpdatedAt: Date | null;
}
export interface UnlinkedServer extends ServerRef {
  teamOwner: string | null;
}

/** An environment's 30-day availability against its SLA target. */
export interface EnvironmentUptime {
  environment: Environment;
  /** Percent of its servers' checks that found them up (maintenance not counted); null without checks. */
  uptime30d: number | null;
  target: number | null;
  /** Servers whose own 30-day uptime is below the target. */
  missed: number;
}
export interface SlaMissedServer extends ServerRef {
  uptime30d: number;
  target: number;
}

/** A capped list and how many rows it has in all. */
export interface Capped<T> {
  rows: T[];
  total: number;
}

/** A live document linked to a server: what the reader opens to act on it. */
export interface RunbookRef {
  id: string;
  space: string;
  title: string;
}

/** A review flag on a live document the reader may read: which server changed what, old → new. */
export interface FlaggedDocument {
  document: RunbookRef;
  serverId: string;
  serverName: string;
  field: ReviewFlagField;
  from: string | null;
  to: string | null;
  at: Date;
  by: string;
}

/** A live document the reader may read whose review date has passed. */
export interface OverdueDocument extends RunbookRef {
  reviewDueAt: Date;
}

/** The servers part of the report: the same for every reader of one team scope. */
export interface FleetReport {
  generatedAt: Date;
  since: Date;
  /** The team whose servers it covers (servers.team_owner); null: every server. */
  team: string | null;
  total: number;
  byStatus: Record<ServerStatus, number>;
  byEnvironment: { environment: Environment; total: number; byStatus: Record<ServerStatus, number> }[];
  changed: StateChange[];
  /** Every offline server, the longest outage first (capped; byStatus.offline counts them all). */
  down: OfflineServer[];
  offlineLong: OfflineServer[];
  highUsage: HighUsageServer[];
  staleMetrics: StaleServer[];
  /** Servers no live document is linked to. */
  withoutRunbook: Capped<UnlinkedServer>;
  /** 30-day availability per environment and its SLA target. */
  uptime: EnvironmentUptime[];
  /** Servers below their environment's SLA target over 30 days. */
  slaMissed: Capped<SlaMissedServer>;
}

/** The parts that depend on who reads the report: only documents they may read. */
export interface ReaderSections {
  /** The runbooks of each server that is down or changed state, by server id. */
  runbooks: Record<string, RunbookRef[]>;
  flagged: Capped<FlaggedDocument>;
  overdue: Capped<OverdueDocument>;
}

export type HealthReport = FleetReport & ReaderSections;
