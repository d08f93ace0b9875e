import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';
import { data, newToken } from './client';

/**
 * README § MCP server (for agents): the client configuration it shows, used as a client would use it, over real HTTP
 * against the app listening on loopback (only the address and the token are this run's).
 */

const PLACEHOLDER = 'YOUR_OPS_HUB_TOKEN';

interface ClientEntry {
  type: string;
  url: string;
  headers: Record<string, string>;
}

/** The `mcpServers` entry of the README's JSON snippet in the MCP section. */
function readmeEntry(): ClientEntry {
  const readme = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.split('### MCP server (for agents)')[1]?.split(/\n##+ /)[0] ?? '';
  const json = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  expect(json, 'a JSON snippet in the MCP section').toBeDefined();
  return (JSON.parse(json!) as { mcpServers: Record<string, ClientEntry> }).mcpServers['ops-hub'];
}

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

describe('the README client configuration', () => {
  it('connects an MCP client that lists the tools and calls one', async () => {
    const entry = readmeEntry();
    expect(entry.type).toBe('http');
    expect(new URL(entry.url).pathname).toBe('/mcp');
    expect(entry.headers.Authorization).toBe(`Bearer ${PLACEHOLDER}`);

    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { token } = await newToken(app, user);
    const url = new URL(new URL(entry.url).pathname, app.url);
    const headers = { Authorization: entry.headers.Authorization.replace(PLACEHOLDER, token) };
    const client = new Client({ name: 'readme-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_documents');
      expect(await data(client, 'recent_documents')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
