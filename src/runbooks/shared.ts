/**
 * Living documentation (issue 23): servers linked to documents, their live state inside the document, and the
 * review flags a change of a linked server raises. Browser-safe: islands import these types and labels.
 */
import { kbTypeOf } from '../knowledge/shared/item-types';
import type { Server } from '../servers/shared';

/** A linked server's live state, as item answers, the Servers panel and the editor's picker show it. */
export type ServerSummary = Pick<
  Server,
  | 'id'
  | 'name'
  | 'hostname'
  | 'ipAddress'
  | 'status'
  | 'environment'
  | 'cpuUsage'
  | 'memoryUsage'
  | 'diskUsage'
  | 'uptime'
  | 'lastHealthCheck'
  | 'metricsUpdatedAt'
>;

/** An ISO time of a timestamp as the database or JSON gives it (Date or text); null stays null. */
export const isoOrNull = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

/** What a summary is made of: a Server (JSON) or a selected row, whose metrics may be null and times Dates. */
export type SummarySource = Pick<ServerSummary, 'id' | 'name' | 'hostname' | 'ipAddress' | 'status' | 'environment'> & {
  cpuUsage: number | null;
  memoryUsage: number | null;
  diskUsage: number | null;
  uptime: number | null;
  lastHealthCheck: Date | string | null;
  metricsUpdatedAt: Date | string | null;
};

/** A server's live-state summary (only the summary's fields, so a full Server sends no more than these). */
export function summaryOf(s: SummarySource): ServerSummary {
  return {
    id: s.id,
    name: s.name,
    hostname: s.hostname,
    ipAddress: s.ipAddress,
    status: s.status,
    environment: s.environment,
    cpuUsage: s.cpuUsage ?? 0,
    memoryUsage: s.memoryUsage ?? 0,
    diskUsage: s.diskUsage ?? 0,
    uptime: s.uptime ?? 0,
    lastHealthCheck: isoOrNull(s.lastHealthCheck),
    metricsUpdatedAt: isoOrNull(s.metricsUpdatedAt),
  };
}

/** The fields whose change flags a linked document (status and metrics never do); `deleted`: the server was deleted. */
export type ReviewFlagField =
  | 'name'
  | 'hostname'
  | 'ipAddress'
  | 'operatingSystem'
  | 'environment'
  | 'serverType'
  | 'domain'
  | 'network'
  | 'deleted';

/** "A linked server changed since this was last reviewed": one changed field, old → new, when and by whom. */
export interface ReviewFlag {
  serverId: string;
  /** The server's name when it changed (its new name after a rename). */
  serverName: string;
  field: ReviewFlagField;
  from: string | null;
  to: string | null;
  at: string;
  /** Who changed it: a person's name, or "an agent" / "the system". */
  by: string;
}

/** The words for a flagged field ("IP address"). */
export const REVIEW_FLAG_LABELS: Record<ReviewFlagField, string> = {
  name: 'Name',
  hostname: 'Hostname',
  ipAddress: 'IP address',
  operatingSystem: 'Operating system',
  environment: 'Environment',
  serverType: 'Server type',
  domain: 'Domain',
  network: 'Network zone',
  deleted: 'Server deleted',
};

/** A flagged value as every text of a flag shows it ("none" for an empty one). */
export const flagValueWords = (value: string | null) => value || 'none';

/** The Servers panel's element id: the read page's script finds it and swaps in what its refresh address answers. */
export const SERVERS_PANEL_ID = 'servers-panel';

/** How often an open page refreshes its Servers panel (at most one request per 30 s per page). */
export const SERVERS_PANEL_POLL_MS = 30_000;

/**
 * The `documentType` of a server–document link, from the item: a knowledge item's kind ('knowledge-base',
 * 'work-instruction', 'how-to-guide', 'build-document'), or 'document' for a document.
 */
export const documentTypeOf = (space: 'documents' | 'knowledge', templateType: string | null | undefined): string =>
  space === 'documents' ? 'document' : kbTypeOf(templateType);

/** Inline pictures (`data:image/…;base64,…`) hold no server names: left out of the text read for mentions. */
export const withoutInlineImages = (text: string) => text.replace(/data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s]*/gi, '');
