import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible `/v1/embeddings` for tests (127.0.0.1) with deterministic vectors: words of one synonym
 * group share a dimension (so "restart" is close to "reboot", which full text cannot match), any other word lands on
 * a dimension picked by its hash. `mode` makes it misbehave: `fail` answers 500, `stall` never answers, `refuse`
 * answers 400 to any input containing "REFUSE-ME".
 */
export type EmbeddingsMode = 'ok' | 'fail' | 'stall' | 'refuse';

export interface FakeEmbeddings {
  url: string;
  mode: EmbeddingsMode;
  /** Every request's model and inputs, in order. */
  requests: { model: string; input: string[] }[];
  /** Runs before each answer (a test's change to the world while a request is in flight). */
  beforeAnswer?: () => Promise<unknown>;
  close(): Promise<void>;
}

const SYNONYMS = [
  ['restart', 'reboot', 'bounce', 'recycle', 'restarting', 'rebooting'],
  ['certificate', 'cert', 'tls', 'ssl', 'certificates'],
  ['printer', 'printing', 'spooler', 'print'],
  ['password', 'credential', 'credentials', 'passphrase'],
  ['disk', 'storage', 'volume', 'disks'],
];
const GROUPS = SYNONYMS.length;
const DIMENSIONS = 64;
/** Words that carry no meaning here (so two texts do not look alike by "the"). */
const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'on', 'in', 'how', 'do', 'i', 'is', 'and', 'for', 'it', 'what']);

function dimensionOf(word: string): number {
  const group = SYNONYMS.findIndex((g) => g.includes(word));
  if (group >= 0) return group;
  return GROUPS + (createHash('sha256').update(word).digest().readUInt32BE(0) % (DIMENSIONS - GROUPS));
}

/** The vector of a text: one count per dimension for each meaningful word (not normalised: the app does that). */
export function fakeVector(text: string): number[] {
  const v = new Array(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) if (!STOP.has(word)) v[dimensionOf(word)] += 1;
  if (v.every((x) => x === 0)) v[DIMENSIONS - 1] = 1;
  return v;
}

export async function startFakeEmbeddings(host = '127.0.0.1'): Promise<FakeEmbeddings> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      await fake.beforeAnswer?.();
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      const { model, input } = JSON.parse(body) as { model: string; input: string | string[] };
      const inputs = Array.isArray(input) ? input : [input];
      fake.requests.push({ model, input: inputs });
      if (fake.mode === 'stall') return;
      if (fake.mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
        return;
      }
      if (fake.mode === 'refuse' && inputs.some((t) => t.includes('REFUSE-ME'))) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"input too long"}}');
        return;
      }
      const data = inputs.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeEmbeddings = {
    url: `http://${host}:${port}/v1`,
    mode: 'ok',
    requests: [],
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return fake;
}
