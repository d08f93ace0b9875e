import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { resolveTarget } from './targets';
import { trustedCas } from './trust';
import { type CheckSpec, failing, type ProbeContext, type ProbeOutcome } from './types';

const MAX_REDIRECTS = 3;
/** Enough of a body to find the expected text; the rest is never read. */
const MAX_BODY_CHARS = 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'OpsHub-HealthCheck/1';

interface Answer {
  status: number;
  /** Set when the answer is a redirect to follow. */
  location: string | null;
  body: string | null;
  respondedAt: number;
}

/**
 * An http or https check: GET the URL (redirects followed up to 3, each hop's host vetted again), then the
 * expected status (any 2xx/3xx when unset) and text. Sockets connect only to the address the policy vetted.
 */
export async function probeHttp(spec: CheckSpec, ctx: ProbeContext, signal: AbortSignal): Promise<ProbeOutcome> {
  const started = performance.now();
  let url = checkUrl(spec);
  if (!url) return failing('not a valid URL');
  // A check that expects a redirect status judges the first answer itself.
  const follow = !(spec.expectStatus !== null && spec.expectStatus >= 300 && spec.expectStatus < 400);
  for (let redirects = 0; ; redirects++) {
    const target = await resolveTarget(url.hostname, ctx.policy, ctx.lookup);
    if (!target.ok)
      return failing(redirects ? `${target.reason} (redirected to ${url.host})` : target.reason, target.detail);
    const answer = await get(url, target, ctx, signal, { follow, readBody: !!spec.expectText });
    if (!answer.location) return judge(answer, spec, Math.round(answer.respondedAt - started));
    if (redirects === MAX_REDIRECTS) return failing('too many redirects', `more than ${MAX_REDIRECTS} redirects`);
    url = redirectUrl(answer.location, url);
    if (!url) return failing('redirected to an address that is not http or https', answer.location);
  }
}

/** {scheme}://{target}[:port]{path or /} */
function checkUrl(spec: CheckSpec): URL | null {
  const host = isIP(spec.target) === 6 ? `[${spec.target}]` : spec.target;
  const port = spec.port ? `:${spec.port}` : '';
  const path = spec.path ? (spec.path.startsWith('/') ? spec.path : `/${spec.path}`) : '/';
  return URL.canParse(`${spec.kind}://${host}${port}${path}`) ? new URL(`${spec.kind}://${host}${port}${path}`) : null;
}

/** A Location (relative ones against the current URL); null unless http or https. */
function redirectUrl(location: string, current: URL): URL | null {
  if (!URL.canParse(location, current)) return null;
  const next = new URL(location, current);
  return next.protocol === 'http:' || next.protocol === 'https:' ? next : null;
}

function judge(answer: Answer, spec: CheckSpec, latencyMs: number): ProbeOutcome {
  const { status } = answer;
  const statusOk = spec.expectStatus !== null ? status === spec.expectStatus : status >= 200 && status < 400;
  if (!statusOk) {
    return { ...failing(`expected status ${spec.expectStatus ?? '2xx or 3xx'}, got ${status}`), latencyMs };
  }
  if (spec.expectText && !answer.body?.includes(spec.expectText)) {
    return { ...failing(`text "${spec.expectText}" not found in the body`), latencyMs };
  }
  return { status: 'ok', latencyMs, error: null, detail: null };
}

/** Whatever the host name, the socket connects to the vetted address. */
function vettedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** One GET: the status, a redirect's Location, and (when asked) the start of the body. */
function get(
  url: URL,
  target: { address: string; family: 4 | 6 },
  ctx: ProbeContext,
  signal: AbortSignal,
  opts: { follow: boolean; readBody: boolean },
): Promise<Answer> {
  const https = url.protocol === 'https:';
  const options: RequestOptions & { ca?: string[] } = {
    method: 'GET',
    agent: false, // a fresh connection each time: nothing pooled between checks or targets
    signal,
    lookup: vettedLookup(target.address, target.family),
    headers: { 'user-agent': USER_AGENT, accept: '*/*' },
    ...(https ? { ca: trustedCas(ctx) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
      const respondedAt = performance.now();
      const status = res.statusCode ?? 0;
      const location = (opts.follow && REDIRECT_STATUSES.has(status) && res.headers.location) || null;
      if (location || !opts.readBody) {
        res.destroy();
        resolve({ status, location, body: null, respondedAt });
        return;
      }
      readBody(res).then((body) => resolve({ status, location: null, body, respondedAt }), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as text, up to MAX_BODY_CHARS (then the connection is closed). */
function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += chunk;
      if (body.length < MAX_BODY_CHARS) return;
      res.destroy();
      resolve(body);
    });
    res.once('end', () => resolve(body));
    res.on('error', reject);
  });
}
