import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';
import {
  hostileKeys,
  hostileParams,
  hostileRawBodies,
  hostileStrings,
  hostileValues,
  pick,
  seededRandom,
} from './hostile';
import { loopbackOnly } from './loopback-only';

/**
 * Near-valid requests with hostile values to every write endpoint (taken from the app's own route table, so a
 * new route is fuzzed without a change here) and to every parameterless page and API GET with hostile query
 * strings. Nothing may answer 5xx or show a stack trace. Seeded: FUZZ_SEED reproduces a run; FUZZ_CASES sets
 * the cases per endpoint (every case: FUZZ_CASES=all).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 17_0709);
const CASES_PER_ROUTE = process.env.FUZZ_CASES === 'all' ? Infinity : Number(process.env.FUZZ_CASES ?? 20);

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
// Bounded quantifiers only: responses echo 1 MB values, and an open-ended `[\w/]+\/src` would backtrack for minutes.
const STACK_TRACE =
  /\n[ \t]{1,40}at \S|\bat (async )?[\w$.<>]{1,200} \(|node_modules\/|\/src\/[\w/.-]{1,200}\.tsx?:\d|\b(Type|Range|Reference|Syntax)Error\b|Error: /;

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; type: string }
  | { kind: 'form'; fields: [string, string][] }
  | { kind: 'multipart'; parts: [string, string | Blob, string?][] }
  | { kind: 'binary'; bytes: Uint8Array<ArrayBuffer>; type: string };

interface Case {
  label: string;
  body: Body;
  params?: Record<string, string>;
  query?: string;
}

interface Route {
  method: string;
  path: string;
}

let t: TestContext;
let guard: ReturnType<typeof loopbackOnly>;

beforeAll(async () => {
  guard = loopbackOnly();
  t = await createTestApp();
});
afterAll(async () => {
  guard.restore();
  await t.close();
});

/** Ids the valid requests point at, made fresh for each route (a DELETE case must not starve the next route). */
function fixtures(cookie: string) {
  const post = async (path: string, body?: unknown) => {
    const res = await t.app.request(path, jsonRequest('POST', body, cookie));
    if (res.status >= 300) throw new Error(`fixture ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const once = <T>(make: () => Promise<T>) => {
    let p: Promise<T> | undefined;
    return () => (p ??= make());
  };
  const item = (base: string) =>
    once(async () => {
      const { id } = await post(base, { title: 'Fuzz item', content: 'Some content' });
      const versions = await (
        await t.app.request(`${base}/${id}/versions`, jsonRequest('GET', undefined, cookie))
      ).json();
      return { id: id as string, versionId: versions[0].id as string };
    });
  // The probe goes to 127.0.0.1:9, refused at once: nothing leaves the machine and nothing waits.
  const server = once(
    async () =>
      (await post('/api/servers', { name: `fuzz-server-${randomUUID()}`, ipAddress: '127.0.0.1', monitorPort: 9 }))
        .id as string,
  );
  return {
    document: item('/api/documents'),
    knowledge: item('/api/knowledge-base'),
    server,
    member: once(
      async () =>
        (
          await post('/api/team-members', {
            name: 'Fuzz Member',
            email: `m-${randomUUID()}@example.com`,
            role: 'DevOps Engineer',
          })
        ).id as string,
    ),
    token: once(async () => (await post('/api/tokens', { name: 'fuzz', serverIds: [await server()] })).id as string),
    interaction: once(
      async () => (await post('/api/ai/ask', { query: 'Which servers are offline?' })).interactionId as string,
    ),
    uploadUrl: once(async () => (await post('/api/objects/upload')).uploadURL as string),
    uploadedImage: once(async () => {
      const { uploadURL } = await post('/api/objects/upload');
      const res = await t.app.request(uploadURL, {
        method: 'PUT',
        headers: { Origin: TEST_ORIGIN, Cookie: cookie, 'Content-Type': 'image/png' },
        body: new Uint8Array(PNG),
      });
      if (res.status !== 200) throw new Error(`fixture image: ${res.status}`);
      return uploadURL as string;
    }),
    pendingUser: once(async () => {
      const [u] = await t.db
        .insert(users)
        .values({
          email: `p-${randomUUID()}@example.com`,
          firstName: 'Pending',
          lastName: 'User',
          accountStatus: 'pending_approval',
          isEmailVerified: true,
        })
        .returning({ id: users.id });
      return u.id;
    }),
  };
}
type Fixtures = ReturnType<typeof fixtures>;

/** A valid value for each path parameter, by the route it belongs to (unknown routes get a random uuid). */
async function validParams(route: Route, fx: Fixtures, random: () => number): Promise<Record<string, string>> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const space = /^\/(api\/)?knowledge-base\//.test(route.path) ? fx.knowledge : fx.document;
  const byRoute: [RegExp, () => Promise<string>][] = [
    [/^\/(api\/)?(documents|knowledge-base)\//, async () => (await space()).id],
    [/^\/(api\/admin|admin\/approval)\//, fx.pendingUser],
    [/^\/(api\/team-members|team\/members)\//, fx.member],
    [/^\/(api\/servers|infrastructure)\//, fx.server],
    [/^\/api\/tokens\//, fx.token],
    [/^\/api\/objects\/put\//, async () => /put\/([^?]+)/.exec(await fx.uploadUrl())![1]],
  ];
  const out: Record<string, string> = {};
  for (const name of names) {
    if (name === 'versionId') out[name] = (await space()).versionId;
    else if (name === 'documentId') out[name] = (await fx.document()).id;
    else if (name === 'name')
      out[name] = pick(random, ['health-checks', 'mail-delivery', 'token-expiry', 'health-report']);
    else out[name] = (await byRoute.find(([re]) => re.test(route.path))?.[1]()) ?? randomUUID();
  }
  return out;
}

const email = () => `f-${randomUUID().slice(0, 8)}@example.com`;
const password = 'correct-horse-battery';

/** A valid body per route; routes not listed get {} and are fuzzed from there. */
async function validBody(route: Route, fx: Fixtures): Promise<Record<string, unknown>> {
  const item = {
    title: 'Fuzz title',
    content: '# Heading\n\nBody',
    excerpt: 'Short',
    category: 'linux',
    tags: ['a', 'b'],
    isPublished: true,
    formModel: { kind: 'howto', purpose: 'Fuzz purpose', steps: [] },
  };
  const server = {
    name: `fuzz-web-${randomUUID().slice(0, 8)}`,
    hostname: 'web-01',
    ipAddress: '127.0.0.2',
    environment: 'production',
    monitorPort: 9,
    location: 'Rack 1',
  };
  const member = {
    name: 'Ada Lovelace',
    email: email(),
    role: 'DevOps Engineer',
    department: 'IT Operations',
    status: 'active',
  };
  const bodies: Record<string, () => Promise<Record<string, unknown>> | Record<string, unknown>> = {
    'POST /api/auth/register': () => ({
      firstName: 'Fuzz',
      lastName: 'User',
      email: email(),
      password,
      confirmPassword: password,
    }),
    'POST /register': () => ({
      firstName: 'Fuzz',
      lastName: 'User',
      email: email(),
      password,
      confirmPassword: password,
    }),
    'POST /api/auth/login': () => ({ email: email(), password }),
    'POST /login': () => ({ email: email(), password, next: '/' }),
    'POST /api/auth/forgot-password': () => ({ email: email() }),
    'POST /forgot-password': () => ({ email: email() }),
    'POST /api/auth/reset-password': () => ({ token: 'a'.repeat(43), password, confirmPassword: password }),
    'POST /reset-password': () => ({ token: 'a'.repeat(43), password, confirmPassword: password }),
    'POST /api/documents': () => item,
    'PUT /api/documents/:id': () => item,
    'POST /api/knowledge-base': () => item,
    'PUT /api/knowledge-base/:id': () => item,
    'POST /api/documents/:id/restore/:versionId': () => ({ version: 1 }),
    'POST /api/knowledge-base/:id/restore/:versionId': () => ({ version: 1 }),
    'POST /api/markdown/render': () => ({ content: '# Title\n\n*text*' }),
    'PUT /api/objects/acl': async () => ({ imageURL: await fx.uploadedImage(), visibility: 'public' }),
    'POST /knowledge-base/:id/delete': () => ({ back: '/knowledge-base?q=x' }),
    'POST /documents/:id/delete': () => ({ back: '/documents' }),
    'POST /api/team-members': () => member,
    'PUT /api/team-members/:id': () => member,
    'POST /team/members': () => member,
    'POST /team/members/:id': () => member,
    'POST /api/team/invite': () => ({
      email: email(),
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'Manager',
      department: 'IT Security',
    }),
    'POST /team/invite': () => ({
      email: email(),
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'Manager',
      department: 'IT Security',
    }),
    'POST /settings/profile': () => ({
      firstName: 'Fuzz',
      lastName: 'Admin',
      department: 'IT Operations',
      timezone: 'UTC',
    }),
    'POST /settings/notifications': () => ({ emailNotifications: 'on', securityAlerts: 'on' }),
    'POST /settings/appearance': () => ({ theme: 'dark', autoSave: 'on', compactView: 'on' }),
    'POST /settings/password': () => ({ currentPassword: '', newPassword: password, confirmPassword: password }),
    'POST /settings/delete-account': () => ({ confirmEmail: 'someone-else@example.com' }),
    'POST /api/notifications/push-subscription': () => ({
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') },
    }),
    'PUT /api/servers/:id/metrics': () => ({
      cpuUsage: 10,
      memoryUsage: 20,
      diskUsage: 30,
      uptime: 3600,
      status: 'online',
    }),
    'POST /api/servers': () => server,
    'PUT /api/servers/:id': () => server,
    'POST /api/servers/:id/documents': async () => ({ documentId: (await fx.document()).id, documentType: 'runbook' }),
    'DELETE /api/servers/:id/documents': async () => ({ documentId: (await fx.document()).id }),
    'POST /infrastructure/:id/documents': async () => ({
      documentId: (await fx.document()).id,
      documentType: 'runbook',
    }),
    'POST /api/tokens': async () => ({ name: 'agent', serverIds: [await fx.server()] }),
    'POST /api/ai/ask': () => ({
      query: 'How do I restart nginx?',
      conversationHistory: [{ role: 'user', content: 'hi' }],
    }),
    'POST /api/ai/ask-stream': () => ({ query: 'How do I restart nginx?' }),
    'POST /api/ai/feedback': async () => ({ interactionId: await fx.interaction(), feedback: 'helpful' }),
    'POST /api/ai/enhance-content': () => ({ title: 'T', content: 'Some text to improve', category: 'linux' }),
    'POST /api/ai/enhance-field': () => ({ fieldType: 'title', content: 'restart nginx', category: null }),
    'POST /api/ai/auto-create-kb-preview': () => ({ content: 'Steps: restart nginx, check logs' }),
    'POST /api/ai/auto-create-kb': () => ({
      title: 'Restart nginx',
      category: 'web',
      tags: ['nginx'],
      excerpt: 'How to',
      content: 'Steps',
    }),
    'POST /ai': () => ({ query: 'How do I restart nginx?' }),
  };
  return (await bodies[`${route.method} ${route.path}`]?.()) ?? {};
}

const bodyKind = (route: Route) =>
  route.path.startsWith('/api/objects/put/')
    ? 'binary'
    : route.path === '/settings/avatar'
      ? 'multipart'
      : route.path.startsWith('/api/')
        ? 'json'
        : 'form';

/** Form fields from a JSON-like record: arrays repeat the key, other non-strings are sent as JSON text. */
function formFields(value: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(value)) {
    for (const item of Array.isArray(v) ? v : [v])
      out.push([k, typeof item === 'string' ? item : (JSON.stringify(item) ?? 'undefined')]);
  }
  return out;
}

/** Every case for one route: the valid request, then one mutation each (sampled down to CASES_PER_ROUTE). */
function casesFor(route: Route, valid: Record<string, unknown>, random: () => number): Case[] {
  const kind = bodyKind(route);
  const fields = Object.keys(valid);
  const field = () => (fields.length ? pick(random, fields) : 'value');
  const withField = (k: string, v: unknown) => ({ ...valid, [k]: v });
  const encode = (value: Record<string, unknown>): Body =>
    kind === 'json'
      ? { kind: 'json', value }
      : kind === 'form'
        ? { kind: 'form', fields: formFields(value) }
        : encodeOther(value);
  const encodeOther = (value: Record<string, unknown>): Body =>
    kind === 'multipart'
      ? {
          kind: 'multipart',
          parts: [['avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png'], ...formFields(value)],
        }
      : { kind: 'binary', bytes: new Uint8Array(PNG), type: 'image/png' };

  const mutations: Case[] = [];
  for (const [label, s] of hostileStrings) {
    const k = field();
    mutations.push({ label: `${k} = ${label}`, body: encode(withField(k, s)) });
  }
  if (kind === 'json' || kind === 'form') {
    for (const [label, v] of hostileValues) {
      const k = field();
      mutations.push({ label: `${k} = ${label}`, body: encode(withField(k, v)) });
    }
  }
  for (const key of hostileKeys) {
    const value = JSON.parse(`{${JSON.stringify(key)}: {"polluted": "\\u0000", "role": "admin"}}`) as Record<
      string,
      unknown
    >;
    mutations.push({ label: `key ${JSON.stringify(key.slice(0, 20))}`, body: encode({ ...valid, ...value }) });
  }
  const rawType =
    kind === 'form'
      ? 'application/x-www-form-urlencoded'
      : kind === 'multipart'
        ? 'multipart/form-data; boundary=xyz'
        : 'application/json';
  for (const [label, text] of hostileRawBodies)
    mutations.push({ label: `raw ${label}`, body: { kind: 'raw', text, type: rawType } });
  mutations.push({
    label: 'valid JSON as text/plain',
    body: { kind: 'raw', text: JSON.stringify(valid), type: 'text/plain' },
  });
  mutations.push({
    label: 'valid body as the other encoding',
    body: kind === 'json' ? { kind: 'form', fields: formFields(valid) } : { kind: 'json', value: valid },
  });
  mutations.push({
    label: 'multipart without a boundary',
    body: { kind: 'raw', text: '--x\r\n\r\n', type: 'multipart/form-data' },
  });
  mutations.push({ label: 'no body', body: { kind: 'none' } });
  if (kind === 'multipart') {
    mutations.push({ label: 'avatar as text', body: { kind: 'multipart', parts: [['avatar', 'a\u0000b']] } });
    mutations.push({
      label: 'avatar of garbage bytes',
      body: { kind: 'multipart', parts: [['avatar', new Blob([new Uint8Array([0, 1, 2, 0xff])]), '\u0000.png']] },
    });
  }
  if (kind === 'binary') {
    mutations.push({
      label: 'garbage bytes',
      body: { kind: 'binary', bytes: new Uint8Array([0, 0, 0xff, 0xfe]), type: 'application/octet-stream' },
    });
    mutations.push({
      label: 'PNG with a hostile type',
      body: { kind: 'binary', bytes: new Uint8Array(PNG), type: 'image/png\u0001; x=\u00ff' },
    });
  }
  for (const [label, s] of [
    ['NUL', '%00'],
    ['lone surrogate', '%ED%A0%80'],
    ['bad escape', '%E0%A4%A'],
    ['1 MB', 'q'.repeat(1 << 20)],
  ]) {
    mutations.push({
      label: `query ${label}`,
      body: encode(valid),
      query: `q=${s}&limit=${s}&page=${s}&exp=${s}&sig=${s}`,
    });
  }
  for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
    for (const p of hostileParams)
      mutations.push({ label: `:${name} = ${p.slice(0, 20)}`, body: encode(valid), params: { [name]: p } });
  }

  // Seeded shuffle, then the first few: every run of a seed sends the same cases.
  for (let i = mutations.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [mutations[i], mutations[j]] = [mutations[j], mutations[i]];
  }
  return [{ label: 'valid', body: encode(valid) }, ...mutations.slice(0, Math.max(0, CASES_PER_ROUTE - 1))];
}

function requestInit(method: string, body: Body, cookie: string): RequestInit {
  const headers: Record<string, string> = { Origin: TEST_ORIGIN, Cookie: cookie };
  switch (body.kind) {
    case 'none':
      return { method, headers };
    case 'json':
      return { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body.value) };
    case 'raw':
      return { method, headers: { ...headers, 'Content-Type': body.type }, body: body.text };
    case 'form':
      return {
        method,
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body.fields).toString(),
      };
    case 'multipart': {
      const data = new FormData();
      for (const [k, v, name] of body.parts) {
        if (typeof v === 'string') data.append(k, v);
        else data.append(k, v, name);
      }
      return { method, headers, body: data };
    }
    case 'binary':
      return { method, headers: { ...headers, 'Content-Type': body.type }, body: body.bytes };
  }
}

function urlOf(route: Route, params: Record<string, string>, query?: string, uploadQuery?: string): string {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => params[name]);
  const q = [uploadQuery, query].filter(Boolean).join('&');
  return q ? `${path}?${q}` : path;
}

/** A request still unanswered after this long has hung (the bound every route must keep). */
const ANSWER_WITHIN_MS = 10_000;

/** Why an answer is a failure (5xx, a stack trace, no answer in time), or null. */
async function answerProblem(answer: Response | Promise<Response>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS)));
  const read = Promise.resolve(answer).then(async (res) => ({ res, text: await res.text() }));
  const result = await Promise.race([read, timeout]).finally(() => clearTimeout(timer));
  if (!result) return `no answer within ${ANSWER_WITHIN_MS / 1000} s`;
  const { res, text } = result;
  // A script (the service worker at /sw.js) is source code: its comments may read like a trace.
  const script = /javascript/i.test(res.headers.get('Content-Type') ?? '');
  const trace = script ? null : STACK_TRACE.exec(text);
  if (res.status >= 500)
    return `${res.status} ${text
      .replace(/<head>.*<\/head>|<[^>]*>/gs, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 200)}`;
  if (trace) return `${res.status} stack trace: …${text.slice(Math.max(0, trace.index - 80), trace.index + 120)}…`;
  return null;
}

function writeRoutes(): Route[] {
  const seen = new Map<string, Route>();
  for (const r of t.app.routes) {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
      seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
}

/** Routes that probe servers or run jobs go first, while the only servers are the fixtures on 127.0.0.1. */
const probes = (r: Route) => /health-check|^\/admin\/jobs\//.test(r.path);

async function fuzzRoute(route: Route, random: () => number): Promise<string[]> {
  const admin = await createSignedInUser(t.db, { role: 'admin' });
  const fx = fixtures(admin.cookie);
  const params = await validParams(route, fx, random);
  const uploadQuery = route.path.startsWith('/api/objects/put/') ? (await fx.uploadUrl()).split('?')[1] : undefined;
  const failures: string[] = [];
  for (const c of casesFor(route, await validBody(route, fx), random)) {
    const url = urlOf(route, { ...params, ...c.params }, c.query, uploadQuery);
    const problem = await answerProblem(t.app.request(url, requestInit(route.method, c.body, admin.cookie)));
    if (problem) failures.push(`${route.method} ${route.path} [${c.label}] → ${problem}`);
  }
  return failures;
}

describe('fuzz: hostile near-valid input never gives a 5xx or a stack trace', () => {
  it('covers every write endpoint in the route table', () => {
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /api/documents', 'POST /settings/profile', 'PUT /api/servers/:id']),
    );
  });

  it('the traffic guard sends a connection to an outside address to loopback and records it', async () => {
    const socket = new net.Socket();
    const refused = new Promise<string>((resolve) =>
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? '')),
    );
    socket.connect({ host: '192.0.2.1', port: 80 });
    expect(await refused).toBe('ECONNREFUSED');
    expect(guard.attempts.splice(0)).toEqual(['192.0.2.1']);
  });

  it('write endpoints', { timeout: 300_000 }, async () => {
    const random = seededRandom(SEED);
    const routes = writeRoutes().sort((a, b) => Number(probes(b)) - Number(probes(a)));
    const failures: string[] = [];
    for (const route of routes) failures.push(...(await fuzzRoute(route, random)));
    expect(failures, `FUZZ_SEED=${SEED} FUZZ_CASES=${process.env.FUZZ_CASES ?? ''}`).toEqual([]);
    expect(guard.attempts).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('pages and API reads with hostile query strings', { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED + 1);
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const gets = [
      ...new Set(
        t.app.routes
          .filter((r) => r.method === 'GET' && !r.path.includes(':') && !r.path.includes('*'))
          .map((r) => r.path),
      ),
    ];
    const values = [
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%C0%80',
      '%E0%A4%A',
      '%25',
      'x'.repeat(100_000),
      '__proto__',
      '-1',
      '1e309',
      '%0D%0ASet-Cookie:%20x=1',
    ];
    const failures: string[] = [];
    for (const path of gets) {
      for (let i = 0; i < 3; i++) {
        const v = pick(random, values);
        const url = `${path}?q=${v}&page=${v}&limit=${v}&status=${v}&environment=${v}&category=${v}&sort=${v}&token=${v}&next=${v}&type=${v}`;
        const problem = await answerProblem(t.app.request(url, { headers: { Cookie: admin.cookie } }));
        if (problem) failures.push(`GET ${path} [${v.slice(0, 20)}] → ${problem}`);
      }
    }
    expect(gets.length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    expect(guard.attempts).toEqual([]);
  });
});
