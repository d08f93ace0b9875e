/**
 * The paged server list, browser-safe (the table island builds its requests with it): sort keys, the row shape
 * and the status a row shows.
 */
import type { Server, ServerStatus } from '../shared';

/** Columns the list sorts by on the server (ids = the table's column ids); `-key` sorts descending. */
export const SERVER_SORTS = [
  'server',
  'status',
  'environment',
  'cpu',
  'memory',
  'uptime',
  'lastCheck',
  'os',
  'serverType',
  'location',
  'primaryFunction',
  'team',
  'availability',
] as const;
export type ServerSortKey = (typeof SERVER_SORTS)[number];

/** Extra data a page can carry: `availability` = uptime % per period (server_uptime). */
export const SERVER_LIST_COLUMNS = ['availability'] as const;

/** The most rows one page answers. */
export const SERVER_PAGE_SIZE_MAX = 200;

/** Uptime % over each period (null: no data for it). */
export type Availability = {
  '24h': number | null;
  '7d': number | null;
  '30d': number | null;
  '90d': number | null;
};

/** A row of a page: the server, the window that puts it in maintenance, its flapping mark and (if asked) availability. */
export type ListedServer = Server & {
  maintenanceWindowId: string | null;
  flappingSince: string | null;
  availability?: Availability | null;
};

/** GET /api/servers?page=…: one page of the matching servers and how many match. */
export interface ServerPage {
  servers: ListedServer[];
  total: number;
  page: number;
  pageSize: number;
}

/** What the table shows: a server in a maintenance window shows "maintenance" (its stored status stays). */
export function shownStatus(s: Pick<ListedServer, 'status' | 'maintenanceWindowId'>): ServerStatus {
  return s.maintenanceWindowId ? 'maintenance' : s.status;
}

/** The list's query as URL parameters, only those set (sort "server" ascending is the default). */
export function listParams(q: {
  q?: string;
  environment?: string;
  status?: string;
  sort?: string;
  page?: number;
}): URLSearchParams {
  const params = new URLSearchParams();
  if (q.q?.trim()) params.set('q', q.q.trim());
  if (q.environment) params.set('environment', q.environment);
  if (q.status) params.set('status', q.status);
  if (q.sort && q.sort !== 'server') params.set('sort', q.sort);
  if (q.page && q.page > 1) params.set('page', String(q.page));
  return params;
}
