import type { Db } from '../db/client';
import type { EditorKind, Fields } from '../knowledge/shared';
import type { Server } from '../servers/shared';
import { getServer } from '../servers/service';
import { buildDocumentFields } from './build-document';
import type { ServerSummary } from './shared';

/** What the editor of a new item created from a server starts with: some fields, and the server linked. */
export type EditorPrefill = { fields: Partial<Fields>; servers: ServerSummary[] };

/** A server's live-state summary (as item answers carry their linked servers). */
export function summaryOfServer(s: Server): ServerSummary {
  const { id, name, hostname, ipAddress, status, environment, cpuUsage, memoryUsage, diskUsage, uptime } = s;
  return {
    id,
    name,
    hostname,
    ipAddress,
    status,
    environment,
    cpuUsage,
    memoryUsage,
    diskUsage,
    uptime,
    lastHealthCheck: s.lastHealthCheck,
    metricsUpdatedAt: s.metricsUpdatedAt,
  };
}

/**
 * The prefill for a new item of `kind` created from server `serverId` (null when there is no such server): a build
 * document gets the build form pre-filled from the record (`buildEngineer`: who creates it); every kind gets the link.
 */
export async function editorPrefillFor(
  db: Db,
  serverId: string,
  kind: EditorKind,
  buildEngineer: string,
): Promise<EditorPrefill | null> {
  const server = await getServer(db, serverId);
  if (!server) return null;
  const fields = kind === 'build-document' ? buildDocumentFields(server, buildEngineer) : {};
  return { fields, servers: [summaryOfServer(server)] };
}
