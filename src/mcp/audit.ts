import { z } from 'zod';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';

/**
 * Every tool call and resource read an MCP client sends is an audit event (`mcp.call`), written before it runs:
 * who (the token's owner), which tool with which arguments, or which resource. Calls the server refuses (an unknown
 * tool, bad arguments) are recorded too: an auditor sees what an agent tried, not only what it got.
 */

export const MCP_CALL = 'mcp.call';

/** Arguments longer than this (as JSON) are not stored, their size is (the tools take a few short fields); names and URIs are cut there. */
const MAX_ARGUMENTS_CHARS = 2000;
/** audit_log.entity_id is varchar(100). */
const MAX_ENTITY_ID = 100;

const toolCall = z.object({
  method: z.literal('tools/call'),
  params: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
});
const resourceRead = z.object({ method: z.literal('resources/read'), params: z.object({ uri: z.string() }) });

function storedArguments(args: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(args);
  return json.length <= MAX_ARGUMENTS_CHARS ? { arguments: args } : { arguments: null, argumentsChars: json.length };
}

/** The audit entry of one JSON-RPC message, or null when it is neither a tool call nor a resource read. */
function entryOf(message: unknown) {
  const call = toolCall.safeParse(message);
  if (call.success) {
    const { name, arguments: args = {} } = call.data.params;
    const details = { tool: name.slice(0, MAX_ARGUMENTS_CHARS), ...storedArguments(args) };
    return { entityType: 'mcp_tool', entityId: name.slice(0, MAX_ENTITY_ID), details };
  }
  const read = resourceRead.safeParse(message);
  if (read.success) {
    const { uri } = read.data.params;
    return {
      entityType: 'mcp_resource',
      entityId: uri.slice(0, MAX_ENTITY_ID),
      details: { resource: uri.slice(0, MAX_ARGUMENTS_CHARS) },
    };
  }
  return null;
}

/** Records the call in a request's message (a batch is refused before) as `userId`'s. */
export async function recordMcpCalls(db: Db, userId: string, message: unknown): Promise<void> {
  const entry = entryOf(message);
  if (entry) await recordAudit(db, { actorId: userId, action: MCP_CALL, ...entry });
}
