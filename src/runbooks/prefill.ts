import type { Db } from '../db/client';
import type { EditorKind, Fields } from '../knowledge/shared';
import { getServer } from '../servers/service';
import { buildDocumentFields } from './build-document';
import { type ServerSummary, summaryOf } from './shared';

/** What the editor of a new item created from a server starts with: some fields, and the server linked. */
export type EditorPrefill = { fields: Partial<Fields>; servers: ServerSummary[] };

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
  return { fields, servers: [summaryOf(server)] };
}
