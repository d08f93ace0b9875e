import type { RouterRoute } from 'hono/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, routeDecision, type RouteDecision } from '../../src/auth/policy';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * Every mounted route must pass a policy guard (allow / allowPage / customGuard, or the requireUser /
 * requirePageUser shorthands) or carry an explicit publicRoute() marker before its handler runs. The walk asks
 * Hono's own router which handlers a request to the route runs, so guards added with app.use count too.
 */
let t: TestContext;
let member: TestUser;
let readers: { role: 'viewer' | 'auditor'; user: TestUser }[];

beforeAll(async () => {
  t = await createTestApp();
  member = await createSignedInUser(t.db, { role: 'editor' });
  readers = [
    { role: 'viewer', user: await createSignedInUser(t.db, { role: 'viewer' }) },
    { role: 'auditor', user: await createSignedInUser(t.db, { role: 'auditor' }) },
  ];
});
afterAll(() => t.close());

const SOME_ID = '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';
const concrete = (path: string) => path.replace(/:[A-Za-z]+(\{[^/]*\})?/g, SOME_ID).replace(/\*/g, 'x');

interface Walked {
  route: RouterRoute;
  url: string;
  decisions: RouteDecision[];
}

/** Each method route with the policy decisions made by the handlers that run up to and including it. */
function walkRoutes(): Walked[] {
  const router = t.app.router as unknown as {
    match(method: string, path: string): [[[unknown, RouterRoute], unknown][]];
  };
  return t.app.routes
    .filter((r) => r.method !== 'ALL')
    .map((route) => {
      const url = concrete(route.path);
      const chain = router.match(route.method, url)[0].map(([[handler, r]]) => ({ handler, r }));
      const at = chain.findIndex((e) => e.r === route);
      expect(at, `${route.method} ${route.path} does not match ${url}`).toBeGreaterThanOrEqual(0);
      const decisions = chain
        .slice(0, at + 1)
        .map((e) => routeDecision(e.handler))
        .filter((d): d is RouteDecision => !!d);
      return { route, url, decisions };
    });
}

const label = (w: Walked) => `${w.route.method} ${w.route.path}`;
const plainUser = { id: 'plain', role: 'editor' };

describe('every mounted route has a policy decision', () => {
  it('finds a guard or a public marker before every handler', () => {
    const walked = walkRoutes();
    expect(walked.length).toBeGreaterThan(50);
    const undecided = walked.filter((w) => w.decisions.length === 0).map(label);
    expect(undecided).toEqual([]);
  });

  it('never marks a catch-all path public (that would decide for every route)', () => {
    const catchAll = t.app.routes.filter((r) => routeDecision(r.handler) === 'public' && /^\/?\*$/.test(r.path));
    expect(catchAll.map((r) => r.path)).toEqual([]);
  });

  it('guards the admin areas with admin-only actions', () => {
    const actions = new Set(walkRoutes().flatMap((w) => w.decisions));
    for (const action of ['user.approve', 'jobs.read', 'jobs.run', 'tokens.manage', 'knowledge.restore'] as const) {
      expect(actions.has(action), action).toBe(true);
    }
  });

  it('refuses a signed-out visitor on every route that is not public (401, or the sign-in page)', async () => {
    const guarded = walkRoutes().filter((w) => !w.decisions.includes('public'));
    expect(guarded.length).toBeGreaterThan(30);
    for (const w of guarded) {
      const res = await t.app.request(w.url, jsonRequest(w.route.method));
      const toLogin = [302, 303].includes(res.status) && (res.headers.get('location') ?? '').startsWith('/login?next=');
      expect(res.status === 401 || toLogin, `${label(w)} answered ${res.status} signed out`).toBe(true);
    }
  });

  it('refuses a plain user (403) on every route whose decision is not theirs', async () => {
    const adminOnly = walkRoutes().filter((w) => w.decisions.some((d) => d !== 'public' && !can(plainUser, d)));
    expect(adminOnly.length).toBeGreaterThanOrEqual(10);
    for (const w of adminOnly) {
      const res = await t.app.request(w.url, jsonRequest(w.route.method, undefined, member.cookie));
      expect(res.status, `${label(w)} as a plain user`).toBe(403);
    }
  });
});

/**
 * Write routes a viewer or auditor may call, each with why. Everything else that is not GET/HEAD and not public
 * must answer 403 to them.
 */
const READER_WRITES: [RegExp, string][] = [
  [/^\/settings(\/|$)/, 'their own account settings (profile, password, sessions, tokens, two-factor …)'],
  [/^\/api\/me\//, 'their own personal API tokens, two-factor set-up and notifications (marked read)'],
  [/^\/api\/notifications\/push-subscription$/, 'push notifications on or off for their own browser'],
  [/^\/api\/ai\/(ask|ask-stream|feedback)$/, 'Ops AI questions and feedback on its answers'],
  [/^\/ai$/, 'the Ops AI page asking a question without JavaScript'],
  [/^(\/api\/ai\/conversations|\/ai\/c)\/:id/, 'their own Ops AI conversations: delete, share (404 otherwise)'],
  [/^\/api\/markdown\/render$/, 'the Markdown preview (renders, stores nothing)'],
  [/^\/api\/servers\/mentions$/, 'the servers an unsaved text names (reads, stores nothing)'],
  [/^\/mcp$/, 'the MCP server: read-only tools and resources, with a personal API token (401 without one)'],
  [/^(\/api)?\/(knowledge-base|documents)\/:id\/watch$/, 'watching an item they may read (404 otherwise)'],
  [/^\/notifications\/read$/, 'marking their own notifications read'],
  [/^(\/api)?\/(knowledge-base|documents)\/:id[^/]*\/comments$/, 'comments on an item they may read (item.comment)'],
  [/^(\/api)?\/comments\//, 'their own comments (edit, delete) and threads they may resolve, per comment'],
  [
    /^(\/api)?\/alerts\/:id\/ack$/,
    'acknowledging an alert whose rule alerts them (alert.ack, per alert; 404 otherwise)',
  ],
];

/**
 * Item routes are decided per item, not by role: a write share lets a viewer edit that one item. With an id that
 * names no item (and no body) they answer 400, 403 or 404, never a success.
 */
const PER_ITEM = /^(\/api)?\/(knowledge-base|documents)\/:id(\/|$)/;

const isRead = (w: Walked) => w.route.method === 'GET' || w.route.method === 'HEAD';
const allowedForReaders = (w: Walked) => READER_WRITES.some(([re]) => re.test(w.route.path));

describe('viewers and auditors write nothing', () => {
  const writes = () =>
    walkRoutes().filter((w) => !isRead(w) && !w.decisions.includes('public') && !allowedForReaders(w));

  it('walks the write routes of every feature', () => {
    const paths = new Set(writes().map((w) => w.route.path));
    for (const p of [
      '/api/servers',
      '/api/team-members',
      '/api/objects/upload',
      '/team/members',
      '/dashboard/health-check',
    ])
      expect(paths.has(p), p).toBe(true);
  });

  it('answers 403 { message } to a viewer and an auditor on every write route but the documented ones', async () => {
    const seen = new Set<string>();
    for (const w of writes()) {
      if (seen.has(label(w))) continue;
      seen.add(label(w));
      for (const { role, user } of readers) {
        const res = await t.app.request(w.url, jsonRequest(w.route.method, undefined, user.cookie));
        if (PER_ITEM.test(w.route.path)) {
          expect([400, 403, 404], `${label(w)} as ${role}`).toContain(res.status);
          continue;
        }
        expect(res.status, `${label(w)} as ${role}`).toBe(403);
        if (w.route.path.startsWith('/api/')) expect(typeof (await res.json()).message).toBe('string');
      }
    }
  });

  it('lets them read: every GET route that is not an admin area answers them without 401 or 403', async () => {
    const reads = walkRoutes().filter(
      // Public routes are left out: GET /logout would end the session this walk uses.
      (w) =>
        isRead(w) &&
        !w.decisions.includes('public') &&
        w.decisions.every((d) => d !== 'public' && can({ id: 'x', role: 'viewer' }, d)),
    );
    expect(reads.length).toBeGreaterThan(20);
    for (const w of reads) {
      const res = await t.app.request(w.url, jsonRequest(w.route.method, undefined, readers[0].user.cookie));
      expect([401, 403], `${label(w)} as viewer answered ${res.status}`).not.toContain(res.status);
    }
  });
});
