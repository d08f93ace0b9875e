/**
 * Refusals of the MCP endpoint before a message reaches the server (no token, a bad token, the rate limit, a body
 * that is not JSON): the HTTP status with a JSON-RPC error body, as the SDK's own transport answers such requests
 * (code -32000, id null), so an MCP client shows the message.
 */

/** JSON-RPC "server error": the transport-level code the SDK uses for refused requests. */
export const REFUSED = -32000;
export const PARSE_ERROR = -32700;

export function mcpRefusal(
  status: 400 | 401 | 403 | 405 | 429,
  message: string,
  headers: Record<string, string> = {},
  code = REFUSED,
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export const TOKEN_REQUIRED =
  'A personal API token is required: send "Authorization: Bearer <token>" (create one in Settings › API tokens).';

/** The refusal past MCP_RATE_LIMIT. */
export const rateLimited = (limit: number, retryAfter: number) =>
  mcpRefusal(429, `Rate limit exceeded: ${limit} requests a minute per token. Try again in ${retryAfter} s.`, {
    'Retry-After': String(retryAfter),
  });

export const BATCH_REFUSED = 'Batches are not accepted: send one JSON-RPC message per request.';
