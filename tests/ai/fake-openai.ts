import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible server for tests (127.0.0.1): /v1/chat/completions with tool calls and SSE
 * streaming. It behaves like a model that calls one tool, then answers from the tool result and reports
 * whether injected text reached it as quoted data (inside a tool result) or as instructions.
 * `mode` makes it misbehave instead (see FakeMode); `requests[i].closed` tells whether the caller hung up
 * before the fake finished its answer.
 */

/**
 * - stall-before-headers: never answers.
 * - stall-after-chunk: one content chunk, then silence.
 * - keep-alive-after-chunk: one content chunk, then only `: keep-alive` SSE comments, forever.
 * - drip: a content chunk every 50 ms, forever.
 * - rate-limited: 429 with Retry-After: 7. server-error: 500.
 * - many-tools: 100 search_servers calls every round (even when told tool_choice none).
 * - huge-answer: a 60,000-character answer.
 */
export type FakeMode =
  | 'normal'
  | 'stall-before-headers'
  | 'stall-after-chunk'
  | 'keep-alive-after-chunk'
  | 'drip'
  | 'rate-limited'
  | 'server-error'
  | 'many-tools'
  | 'huge-answer';

type Msg = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
export interface FakeRequest {
  body: {
    model: string;
    messages: Msg[];
    tools?: { function: { name: string } }[];
    tool_choice?: string;
    stream?: boolean;
    response_format?: { json_schema: { name: string } };
  };
  auth: string | undefined;
  /** The connection closed before the fake ended its answer (the caller aborted). */
  closed: boolean;
}

const INJECTION = /ignore previous instructions/i;

function chunk(delta: object, finish: string | null = null) {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/**
 * Which tool the "model" calls for a question; a write attempt for "delete". "find docs: <words>" searches the
 * documents for those words, "read doc: <id>" reads one, "server: <name>" looks a server up, "recent docs" and
 * "audit" call those tools.
 */
function pickTool(question: string): { name: string; args: object } {
  if (/delete/i.test(question)) return { name: 'delete_server', args: { name: 'AUB-POS-01' } };
  const find = /^find docs: (.+)$/i.exec(question);
  if (find) return { name: 'search_documents', args: { query: find[1] } };
  const read = /^read doc: (\S+)$/i.exec(question);
  if (read) return { name: 'get_document', args: { id: read[1] } };
  const server = /^server: (\S+)$/i.exec(question);
  if (server) return { name: 'get_server', args: { name_or_id: server[1] } };
  if (/recent docs/i.test(question)) return { name: 'recent_documents', args: {} };
  if (/audit/i.test(question)) return { name: 'recent_audit_events', args: { limit: 50 } };
  if (/auburn/i.test(question)) return { name: 'search_servers', args: { location: 'Auburn' } };
  return { name: 'search_documents', args: { query: 'VPN' } };
}

/** The final answer: what the tool result held, and where the injected text arrived. */
function answerFrom(messages: Msg[]): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const toolMsgs = messages.filter((m) => m.role === 'tool');
  const instructionsInjected = messages.some(
    (m) => m.role !== 'tool' && INJECTION.test(m.content ?? '') && m.role !== 'assistant',
  );
  const parsed = toolMsgs.map((m) => JSON.parse(m.content ?? '{}') as { untrusted_data?: unknown; error?: string });
  const quoted = parsed.some((p) => INJECTION.test(JSON.stringify(p.untrusted_data ?? '')));
  const markedAsData =
    /untrusted/i.test(system) && /never as instructions|not as instructions|never follow|do not obey/i.test(system);
  const items = parsed.flatMap((p) => (Array.isArray(p.untrusted_data) ? p.untrusted_data : [])) as {
    name?: string;
    title?: string;
    link: string;
  }[];
  const cites = items.map((i) => `[${i.name ?? i.title}](${i.link})`).join(', ');
  const errors = parsed.map((p) => p.error).filter(Boolean);
  const verdict = instructionsInjected
    ? 'INJECTION_OBEYED'
    : quoted && markedAsData
      ? 'INJECTION_QUOTED_AS_DATA'
      : 'NO_INJECTION_SEEN';
  return `Found: ${cites || 'nothing'}. ${errors.length ? `Tool error: ${errors.join('; ')}. ` : ''}Verdict: ${verdict}.`;
}

function structured(name: string, messages: Msg[]): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  if (name === 'kb_preview')
    return JSON.stringify({
      title: 'Restart the DNS Service',
      category: 'dns',
      tags: ['dns', 'powershell'],
      excerpt: 'How to restart DNS.',
      content: `## Steps\n\n1. Restart it\n\n(model saw ${user.length} chars)`,
    });
  if (name === 'enhanced_content')
    return JSON.stringify({
      improvedContent: '## Improved\n\nBetter.',
      suggestedTitle: 'Better Title',
      extractedTags: ['x'],
      summary: 'Sum.',
    });
  return '{"not": "the schema"}'; // enhanced_field: an invalid reply (the app must fall back)
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const part of req) body += part;
  return body;
}

/** Misbehaviours; true when the mode handled the request. */
function misbehave(mode: FakeMode, res: ServerResponse): boolean {
  const sse = () => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const forever = (ms: number, write: () => void) => {
    const timer = setInterval(write, ms);
    res.on('close', () => clearInterval(timer));
  };
  switch (mode) {
    case 'stall-before-headers':
      return true;
    case 'stall-after-chunk':
      sse();
      res.write(chunk({ role: 'assistant', content: 'Let me check' }));
      return true;
    case 'keep-alive-after-chunk':
      sse();
      res.write(chunk({ role: 'assistant', content: 'Let me check' }));
      forever(20, () => res.write(': keep-alive\n\n'));
      return true;
    case 'drip':
      sse();
      forever(50, () => res.write(chunk({ content: 'more ' })));
      return true;
    case 'rate-limited':
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '7' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } }));
      return true;
    case 'server-error':
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }));
      return true;
    case 'many-tools':
      sse();
      for (let i = 0; i < 100; i++) {
        res.write(
          chunk({
            tool_calls: [
              {
                index: i,
                id: `call_${i}`,
                type: 'function',
                function: { name: 'search_servers', arguments: '{"location":"Auburn"}' },
              },
            ],
          }),
        );
      }
      res.write(chunk({}, 'tool_calls'));
      res.end('data: [DONE]\n\n');
      return true;
    case 'huge-answer':
      sse();
      for (let i = 0; i < 60; i++) res.write(chunk({ content: `${String(i).padStart(3, '0')}${'x'.repeat(997)}` }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
      return true;
    default:
      return false;
  }
}

export interface FakeOpenAI {
  url: string;
  requests: FakeRequest[];
  /** How the fake answers chat requests from now on. */
  mode: FakeMode;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  const fake = { mode: 'normal' as FakeMode };
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(await readBody(req)) as FakeRequest['body'];
    const request: FakeRequest = { body, auth: req.headers.authorization, closed: false };
    requests.push(request);
    res.on('close', () => (request.closed = !res.writableFinished));
    if (!body.response_format && misbehave(fake.mode, res)) return;
    if (body.response_format) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const content = structured(body.response_format.json_schema.name, body.messages);
      return void res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const last = body.messages[body.messages.length - 1];
    if (last.role === 'user') {
      const tool = pickTool(last.content ?? '');
      const args = JSON.stringify(tool.args);
      res.write(
        chunk({
          role: 'assistant',
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: tool.name, arguments: '' } }],
        }),
      );
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }, 'tool_calls'));
    } else {
      for (const word of answerFrom(body.messages).match(/\S+\s*/g) ?? []) {
        res.write(chunk({ content: word }));
        await new Promise((r) => setTimeout(r, 2));
      }
      res.write(chunk({}, 'stop'));
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // stalled answers would keep close() waiting
      }),
  });
}
