import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from '../auth/policy';
import { recordMcpCalls } from './audit';
import { BATCH_REFUSED, mcpRefusal, PARSE_ERROR } from './errors';
import { serveMcp } from './serve';
import { tokenGuard } from './token-guard';

/**
 * The MCP server for agents (issue 26): `POST /mcp`, Model Context Protocol over Streamable HTTP, with a personal
 * API token. GET (a server-sent event stream) and DELETE (ending a session) have nothing to offer a stateless
 * server: 405, as the protocol lets a server answer.
 */
export function mcpRoutes() {
  const app = new Hono<AppEnv>();

  app.post('/mcp', tokenGuard(), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return mcpRefusal(400, 'Parse error: the body is not JSON.', {}, PARSE_ERROR);
    }
    // MCP (2025-06-18) sends one message per request; a batch would make many calls on one count of the rate limit.
    if (Array.isArray(body)) return mcpRefusal(400, BATCH_REFUSED);
    const user = c.var.user!;
    await recordMcpCalls(c.var.deps.db, user.id, body);
    return serveMcp(c.req.raw, body, { db: c.var.deps.db, user, logger: c.var.logger });
  });

  app.on(['GET', 'DELETE'], '/mcp', publicRoute(), () =>
    mcpRefusal(405, 'Method not allowed: this MCP server is stateless; send messages with POST.', { Allow: 'POST' }),
  );

  return app;
}
