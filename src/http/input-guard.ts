import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { badRequest } from './errors';

/** No form or document of ours nests this deep; deeper input would only trip recursive code (JSON.stringify, jsonb). */
const MAX_DEPTH = 64;

const FORM = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;
const NUL = /\u0000/;
/** A UTF-16 surrogate without its other half: not a character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why PostgreSQL could not store this text, or null. */
export function unstorable(text: string): string | null {
  if (NUL.test(text)) return 'contains the NUL character (U+0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'contains a lone surrogate (U+D800–U+DFFF), which is not valid Unicode';
  return null;
}

function checkText(text: string, where: string): void {
  const problem = unstorable(text);
  if (problem) throw badRequest(`${where} ${problem}.`, 'invalid_text');
}

/** Every key and string in a parsed JSON value, walked without recursion (the value may be nested very deep). */
function checkJson(root: unknown): void {
  const stack: [value: unknown, path: string, depth: number][] = [[root, '', 0]];
  while (stack.length) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') checkText(value, path ? `Field "${path}"` : 'The body');
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) throw badRequest(`The body is nested more than ${MAX_DEPTH} levels deep.`, 'too_deep');
    const isList = Array.isArray(value);
    for (const [key, child] of Object.entries(value)) {
      if (!isList) checkText(key, 'A field name');
      stack.push([child, isList ? `${path}[${key}]` : path ? `${path}.${key}` : key, depth + 1]);
    }
  }
}

/** Form fields (multipart or urlencoded): names and text values; files are the routes' to check. */
async function checkForm(c: Context<AppEnv>): Promise<void> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    throw badRequest('The form data could not be read.', 'invalid_form');
  }
  for (const [key, value] of Object.entries(form)) {
    checkText(key, 'A field name');
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') checkText(v, `Field "${key}"`);
  }
}

/**
 * A body that is JSON (whatever its declared type: some routes parse text themselves). Read as bytes, which Hono
 * caches, so the route still gets exactly the body that was sent.
 */
async function checkJsonBody(c: Context<AppEnv>): Promise<void> {
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  if (!/^\s*[[{"]/.test(text)) return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return; // not JSON: the route answers for its own format
  }
  checkJson(value);
}

/**
 * Text PostgreSQL cannot store (U+0000, lone surrogates) and absurdly deep JSON are refused here, once, for
 * every route: 400 { message } (an error page for form posts) instead of a 5xx from the database. Covers the
 * path, the query string, JSON bodies and form fields. `skipBody` names routes whose body is binary.
 */
export const inputGuard =
  (skipBody: (path: string) => boolean): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    checkText(c.req.path, 'The address');
    for (const [key, values] of Object.entries(c.req.queries())) {
      checkText(key, 'A query parameter name');
      for (const v of values) checkText(v, `Query parameter "${key}"`);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !skipBody(c.req.path)) {
      if (FORM.test(c.req.header('content-type') ?? '')) await checkForm(c);
      else await checkJsonBody(c);
    }
    await next();
  };
