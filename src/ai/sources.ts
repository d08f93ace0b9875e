/**
 * The sources of an answer: the knowledge items / documents and servers its tools returned or its text links to, and
 * whether it quoted the audit log. Stored with each interaction (context.sources), so a shared conversation can be
 * re-checked against whoever opens it (conversations.ts).
 */

export interface Sources {
  /** Knowledge items and documents (one table, one read rule). */
  items: string[];
  servers: string[];
  /** The answer quoted audit events (readable by admins and auditors only). */
  auditLog: boolean;
}

export const NO_SOURCES: Sources = { items: [], servers: [], auditLog: false };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The in-app links every tool row carries (tools.ts) and answers cite: /knowledge-base/ID, /documents/ID. */
const ITEM_LINK = new RegExp(`/(?:knowledge-base|documents)/(${UUID})`, 'gi');
/** /infrastructure?server=ID (JSON.stringify leaves `?` and `=` as they are). */
const SERVER_LINK = new RegExp(`/infrastructure\\?server=(${UUID})`, 'gi');

const IS_UUID = new RegExp(`^${UUID}$`, 'i');
const idsIn = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1].toLowerCase());

/** The items and servers linked from `text` (an answer's markdown, or a tool's result as JSON). */
export function linkedIn(text: string): Sources {
  return { items: idsIn(text, ITEM_LINK), servers: idsIn(text, SERVER_LINK), auditLog: false };
}

/** What one tool call returned: its rows' links, and the audit log when it answered with audit events. */
export function toolSources(tool: string, data: unknown): Sources {
  const quotedAudit = tool === 'recent_audit_events' && Array.isArray(data) && data.length > 0;
  return { ...linkedIn(JSON.stringify(data) ?? ''), auditLog: quotedAudit };
}

/** All of them together, each id once. */
export function mergeSources(list: (Sources | undefined)[]): Sources {
  const items = new Set<string>();
  const servers = new Set<string>();
  let auditLog = false;
  for (const s of list) {
    if (!s) continue;
    for (const id of s.items) items.add(id);
    for (const id of s.servers) servers.add(id);
    auditLog ||= s.auditLog;
  }
  return { items: [...items], servers: [...servers], auditLog };
}

/** Sources as stored in an interaction's context; undefined when missing or malformed (then nothing is assumed). */
export function storedSources(context: unknown): Sources | undefined {
  const s = (context as { sources?: Partial<Sources> } | null)?.sources;
  if (!s || !Array.isArray(s.items) || !Array.isArray(s.servers) || typeof s.auditLog !== 'boolean') return undefined;
  const ids = [...s.items, ...s.servers] as unknown[];
  if (!ids.every((id) => typeof id === 'string' && IS_UUID.test(id))) return undefined;
  return { items: s.items, servers: s.servers, auditLog: s.auditLog };
}
