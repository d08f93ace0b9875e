import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpAsker } from './asker';
import { buildMcpServer } from './server';

/**
 * Answers one MCP request (Streamable HTTP, stateless): a new server and transport for it, JSON responses (no SSE
 * stream: every tool answers at once), both closed when the answer is ready. Stateless keeps any process able to
 * answer any request, with nothing to expire. `body` is the request's parsed JSON (the app has read the stream).
 */
export async function serveMcp(request: Request, body: unknown, asker: McpAsker): Promise<Response> {
  const server = buildMcpServer(asker);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
