import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { getDocument, getServer, recentDocuments, searchServers } from '../ai/service';
import type { McpAsker } from './asker';

/**
 * The MCP resources: `opshub://knowledge/{id}` (a knowledge item or document as Markdown, the revision its read page
 * shows) and `opshub://servers/{id}` (a server with its recent checks and the linked documents the user may read, as
 * JSON). Read as the asking user: an item they may not read is "not found", exactly like a missing one. The lists
 * offer the 50 most recently updated knowledge items the user may read and the first 100 servers.
 */

const knowledgeUri = (id: string) => `opshub://knowledge/${id}`;
const serverUri = (id: string) => `opshub://servers/${id}`;

const LISTED_DOCUMENTS = 50;
const LISTED_SERVERS = 100;

const idOf = (variables: Variables) => String([variables.id].flat()[0] ?? '');
const notFound = (uri: URL) => new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`);

/** Runs a read; a failure other than "not found" reaches the agent without its details (and is logged). */
async function reading(
  asker: McpAsker,
  uri: URL,
  read: () => Promise<ReadResourceResult>,
): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof McpError) throw err;
    asker.logger.error({ err, uri: uri.href }, 'MCP resource read failed');
    throw new McpError(ErrorCode.InternalError, 'The resource could not be read. Try again later.');
  }
}

function registerKnowledge(server: McpServer, asker: McpAsker): void {
  const { db, user } = asker;
  const template = new ResourceTemplate(knowledgeUri('{id}'), {
    list: async () => ({
      resources: (await recentDocuments(db, user, LISTED_DOCUMENTS)).map((d) => ({
        uri: knowledgeUri(d.id),
        name: d.title,
        mimeType: 'text/markdown',
        ...(d.excerpt ? { description: d.excerpt } : {}),
      })),
    }),
  });
  server.registerResource(
    'knowledge',
    template,
    { title: 'Knowledge items and documents', mimeType: 'text/markdown' },
    (uri, variables) =>
      reading(asker, uri, async () => {
        const doc = await getDocument(db, user, idOf(variables));
        if (!doc) throw notFound(uri);
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${doc.title}\n\n${doc.content}` }] };
      }),
  );
}

function registerServers(server: McpServer, asker: McpAsker): void {
  const { db, user } = asker;
  const template = new ResourceTemplate(serverUri('{id}'), {
    list: async () => ({
      resources: (await searchServers(db, { limit: LISTED_SERVERS })).map((s) => ({
        uri: serverUri(s.id),
        name: s.name,
        mimeType: 'application/json',
      })),
    }),
  });
  server.registerResource('server', template, { title: 'Servers', mimeType: 'application/json' }, (uri, variables) =>
    reading(asker, uri, async () => {
      const found = await getServer(db, user, idOf(variables));
      if (!found) throw notFound(uri);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(found) }] };
    }),
  );
}

/** Adds both resource templates to `server`. */
export function registerResources(server: McpServer, asker: McpAsker): void {
  registerKnowledge(server, asker);
  registerServers(server, asker);
}
