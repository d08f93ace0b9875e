import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { TEST_ORIGIN, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';

/** The SDK's own MCP client for the tests, talking to the app in-process (its fetch is the app's request()). */

export const MCP_URL = `${TEST_ORIGIN}/mcp`;

/** A personal API token of `user`, made through the API as a person would (Settings › API tokens). */
export async function newToken(
  t: TestContext,
  user: TestUser,
  scope: 'read' | 'read-write' = 'read',
): Promise<{ id: string; token: string }> {
  const res = await t.app.request('/api/me/tokens', {
    method: 'POST',
    headers: { Origin: t.config.appOrigin, Cookie: user.cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'agent', scope }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

/** An SDK client connected to POST /mcp with `token` (none: no Authorization header); extra headers when given. */
export async function connect(t: TestContext, token?: string, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: async (url, init) => t.app.request(String(url), init),
    requestInit: { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  const client = new Client({ name: 'ops-hub-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool's answer as text (the quoted JSON of a result, or the error's words). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

/** The data a successful tool call quoted (`{ tool, untrusted_data }`). */
export async function data<T = unknown>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const { text, isError } = await call(client, name, args);
  expect(isError, `${name}: ${text}`).toBe(false);
  const quoted = JSON.parse(text) as { tool: string; untrusted_data: T };
  expect(quoted.tool).toBe(name);
  return quoted.untrusted_data;
}

/** The text of a resource (its one content), as a client reads it. */
export async function resourceText(client: Client, uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  return 'text' in contents[0] ? contents[0].text : '';
}
