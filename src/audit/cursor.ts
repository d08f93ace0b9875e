/**
 * The opaque keyset cursor of the audit trail: the last event's created_at (to the microsecond, as PostgreSQL
 * stores it, so events in the same millisecond are neither skipped nor repeated) and its id.
 */
export interface AuditCursor {
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor a client sent back, or undefined when it is not one of ours. */
export function decodeCursor(text: string): AuditCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [createdAt, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !TIMESTAMP.test(createdAt ?? '') || !UUID.test(id ?? '')) return undefined;
  // A real instant PostgreSQL accepts: no 31 February (Date would roll it over), no year 0.
  const parsed = new Date(createdAt);
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCFullYear() < 1) return undefined;
  if (parsed.toISOString().slice(0, 19) !== createdAt.slice(0, 19)) return undefined;
  return { createdAt, id };
}
