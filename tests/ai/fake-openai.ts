import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible server for tests (127.0.0.1): /v1/chat/completions with tool calls and SSE
 * streaming. It behaves like a model that calls one tool, then answers from the tool result and reports
 * whether injected text reached it as quoted data (inside a tool result) or as instructions.
 */

type Msg = { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string };
export interface FakeRequest {
  body: { model: string; messages: Msg[]; tools?: { function: { name: string } }[]; stream?: boolean; response_format?: { json_schema: { name: string } } };
  auth: string | undefined;
}

const INJECTION = /ignore previous instructions/i;

function chunk(delta: object, finish: string | null = null) {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** Which tool the "model" calls for a question; a write attempt for "delete". */
function pickTool(question: string): { name: string; args: object } {
  if (/delete/i.test(question)) return { name: 'delete_server', args: { name: 'AUB-POS-01' } };
  if (/auburn/i.test(question)) return { name: 'search_servers', args: { location: 'Auburn' } };
  return { name: 'search_documents', args: { query: 'VPN' } };
}

/** The final answer: what the tool result held, and where the injected text arrived. */
function answerFrom(messages: Msg[]): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const toolMsgs = messages.filter((m) => m.role === 'tool');
  const instructionsInjected = messages.some((m) => m.role !== 'tool' && INJECTION.test(m.content ?? '') && m.role !== 'assistant');
  const parsed = toolMsgs.map((m) => JSON.parse(m.content ?? '{}') as { untrusted_data?: unknown; error?: string });
  const quoted = parsed.some((p) => INJECTION.test(JSON.stringify(p.untrusted_data ?? '')));
  const markedAsData = /untrusted/i.test(system) && /never as instructions|not as instructions|never follow|do not obey/i.test(system);
  const items = parsed.flatMap((p) => (Array.isArray(p.untrusted_data) ? p.untrusted_data : [])) as { name?: string; title?: string; link: string }[];
  const cites = items.map((i) => `[${i.name ?? i.title}](${i.link})`).join(', ');
  const errors = parsed.map((p) => p.error).filter(Boolean);
  const verdict = instructionsInjected ? 'INJECTION_OBEYED' : quoted && markedAsData ? 'INJECTION_QUOTED_AS_DATA' : 'NO_INJECTION_SEEN';
  return `Found: ${cites || 'nothing'}. ${errors.length ? `Tool error: ${errors.join('; ')}. ` : ''}Verdict: ${verdict}.`;
}

function structured(name: string, messages: Msg[]): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  if (name === 'kb_preview') return JSON.stringify({ title: 'Restart the DNS Service', category: 'dns', tags: ['dns', 'powershell'], excerpt: 'How to restart DNS.', content: `## Steps\n\n1. Restart it\n\n(model saw ${user.length} chars)` });
  if (name === 'enhanced_content') return JSON.stringify({ improvedContent: '## Improved\n\nBetter.', suggestedTitle: 'Better Title', extractedTags: ['x'], summary: 'Sum.' });
  return '{"not": "the schema"}'; // enhanced_field: an invalid reply (the app must fall back)
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const part of req) body += part;
  return body;
}

export async function startFakeOpenAI(): Promise<{ url: string; requests: FakeRequest[]; close(): Promise<void> }> {
  const requests: FakeRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(await readBody(req)) as FakeRequest['body'];
    requests.push({ body, auth: req.headers.authorization });
    if (body.response_format) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const content = structured(body.response_format.json_schema.name, body.messages);
      return void res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const last = body.messages[body.messages.length - 1];
    if (last.role === 'user') {
      const tool = pickTool(last.content ?? '');
      const args = JSON.stringify(tool.args);
      res.write(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: tool.name, arguments: '' } }] }));
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
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) };
}
