import type { Db } from '../db/client';
import { serverStatusesOfDocument } from '../servers/service';

/** The servers an item is linked to (id and name), for its preview. */
export async function linkedServers(db: Db, documentId: string): Promise<{ id: string; name: string }[]> {
  const servers = await serverStatusesOfDocument(db, documentId);
  return servers.map((s) => ({ id: s.id, name: s.name }));
}
