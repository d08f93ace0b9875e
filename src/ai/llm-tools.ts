import type OpenAI from 'openai';
import { z } from 'zod';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { environments, serverStatuses } from '../db/schema';
import { when } from './builtin/md';
import { NO_SOURCES, toolSources, type Sources } from './sources';
import * as tools from './tools';

/**
 * The read-only tools offered to the model as function calls, and their runner. Each runs as the asking user
 * (`reader`): knowledge items they may not read and, unless they may read it, the audit log are never quoted.
 */

const defs = {
  search_servers: {
    description:
      'Search the server inventory. All filters optional and combined with AND. Returns servers with their in-app link.',
    schema: z.object({
      text: z
        .string()
        .max(200)
        .optional()
        .describe('free text over name, hostname, IP, location, function, OS, team, description'),
      location: z.string().max(100).optional().describe('part of the server location, e.g. Auburn'),
      environment: z.enum(environments).optional(),
      status: z.array(z.enum(serverStatuses)).max(5).optional(),
      function: z.string().max(100).optional().describe('a word in the name, functions or description, e.g. POS'),
      ip: z.string().max(45).optional().describe('IP address or its prefix'),
    }),
    run: (
      db: Db,
      a: { text?: string; location?: string; environment?: string; status?: string[]; function?: string; ip?: string },
    ) => tools.searchServers(db, { ...a, limit: 100 }),
  },
  get_server: {
    description: 'One server by name, hostname or id, with its last health checks and its linked documents.',
    schema: z.object({ name_or_id: z.string().min(1).max(255) }),
    run: (db: Db, a: { name_or_id: string }, reader: Actor) => tools.getServer(db, reader, a.name_or_id),
  },
  search_documents: {
    description:
      'Search the knowledge base and documents (full text, and by meaning when configured). Returns titles, excerpts, snippets and in-app links; a hit found by meaning has a section whose link goes to the matching heading: cite that link.',
    schema: z.object({ query: z.string().min(1).max(200) }),
    run: (db: Db, a: { query: string }, reader: Actor) => tools.searchDocuments(db, reader, a.query, 8),
  },
  get_document: {
    description: 'One knowledge base item or document by id (from search_documents): its full text, facts and link.',
    schema: z.object({ id: z.uuid() }),
    run: (db: Db, a: { id: string }, reader: Actor) => tools.getDocument(db, reader, a.id),
  },
  recent_documents: {
    description: 'The most recently updated knowledge base items.',
    schema: z.object({}),
    run: (db: Db, _a: object, reader: Actor) => tools.recentDocuments(db, reader, 8),
  },
  team_contacts: {
    description: 'Team members (support contacts): name, role, department, e-mail, status.',
    schema: z.object({ text: z.string().max(100).optional().describe('a word in name, role or department') }),
    run: (db: Db, a: { text?: string }) => tools.teamContacts(db, a.text),
  },
  recent_health_problems: {
    description: 'Recent health checks that found a server offline or in warning, newest first.',
    schema: z.object({ limit: z.number().int().min(1).max(50).optional() }),
    run: (db: Db, a: { limit?: number }) => tools.recentHealthProblems(db, a.limit ?? 10),
  },
  recent_audit_events: {
    description: 'Recent system events from the audit log (who did what), newest first.',
    schema: z.object({ limit: z.number().int().min(1).max(50).optional() }),
    run: (db: Db, a: { limit?: number }, reader: Actor) =>
      tools.mayReadAudit(reader) ? tools.recentAuditEvents(db, reader, a.limit ?? 15) : { error: tools.AUDIT_DENIED },
  },
} as const;

export type ToolName = keyof typeof defs;

/** One tool as another surface (the MCP server) offers it: arguments checked by `schema`, run as `reader`. */
export interface AssistantTool {
  description: string;
  schema: z.ZodObject;
  run(db: Db, args: Record<string, unknown>, reader: Actor): Promise<unknown>;
}

/** The tool `name`, to offer elsewhere exactly as the model gets it. */
export const assistantTool = (name: ToolName): AssistantTool => defs[name] as unknown as AssistantTool;

/** The tools in the chat-completions `tools` format. */
export const toolSpecs: OpenAI.Chat.Completions.ChatCompletionTool[] = Object.entries(defs).map(([name, d]) => ({
  type: 'function',
  function: {
    name,
    description: d.description,
    parameters: z.toJSONSchema(d.schema, { target: 'draft-7' }) as Record<string, unknown>,
  },
}));

/** A timestamp as the tools write them (toISOString). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Untrusted-data envelope: what a tool found, quoted as JSON, never instructions. Timestamps become the
 * asker's local time with the zone named, as the built-in engine writes them (models convert zones badly).
 */
export function quoteToolResult(name: string, data: unknown, timeZone: string): string {
  return JSON.stringify({ tool: name, untrusted_data: data }, (_key, value: unknown) =>
    typeof value === 'string' && ISO_TIME.test(value) ? when(value, timeZone) : value,
  );
}

/**
 * Runs one tool call from the model as `reader` (times in `timeZone`); bad names or arguments become an error
 * result (never a write).
 */
export async function runToolCall(
  db: Db,
  name: string,
  rawArgs: string,
  asker: { reader: Actor; timeZone: string },
): Promise<{ content: string; args: Record<string, unknown>; results: number; sources: Sources }> {
  const def = (defs as Record<string, (typeof defs)[ToolName]>)[name];
  const refused = (error: string) => ({
    content: JSON.stringify({ error }),
    args: {},
    results: 0,
    sources: NO_SOURCES,
  });
  if (!def) return refused(`Unknown tool ${name}`);
  let parsedArgs: unknown;
  try {
    parsedArgs = rawArgs ? JSON.parse(rawArgs) : {};
  } catch {
    return refused('Arguments were not valid JSON.');
  }
  const args = def.schema.safeParse(parsedArgs);
  if (!args.success) return refused(args.error.issues[0]?.message ?? 'Invalid arguments.');
  const data = await (def.run as (db: Db, a: unknown, reader: Actor) => Promise<unknown>)(db, args.data, asker.reader);
  return {
    content: quoteToolResult(name, data, asker.timeZone),
    args: args.data as Record<string, unknown>,
    results: Array.isArray(data) ? data.length : data ? 1 : 0,
    sources: toolSources(name, data),
  };
}
