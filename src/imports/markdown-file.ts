import { marked, type Token } from 'marked';
import { parse as parseYaml } from 'yaml';
import { unstorable } from '../http/input-guard';
import {
  DOCUMENT_TEMPLATE_TYPES,
  ITEM_TYPES,
  kbTypeOf,
  kbTypes,
  TEMPLATE_TYPE_LABELS,
  templateTypes,
  type Space,
  type TemplateType,
} from '../knowledge/shared';

/**
 * One Markdown file as an item (the shared file format of issue 25): YAML front matter between `---` lines (title,
 * category, tags, type, excerpt; other keys ignored), else the first `# heading` is the title and the folder the
 * category. Relative images are found here; the caller stores them and rewrites their links.
 */

/** Why a file cannot be imported, in words for the report. */
export class FileProblem extends Error {}

export interface MarkdownItem {
  title: string;
  content: string;
  category: string | null;
  tags: string[];
  templateType: TemplateType | null;
  excerpt: string | null;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const EMPTY_FRONT_MATTER = /^---[ \t]*\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const HEADING = /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export const isMarkdownPath = (path: string) => /\.(md|markdown)$/i.test(path);
export const isImagePath = (path: string) => /\.(png|jpe?g|gif|webp)$/i.test(path);

const folderOf = (path: string) => path.split('/').slice(0, -1).join('/');
const baseName = (path: string) => path.split('/').at(-1)!;
/** The file name without its extension: the title of last resort. */
export const fileTitle = (path: string) => baseName(path).replace(/\.(md|markdown)$/i, '');

/**
 * Text of a front matter value (numbers and booleans as written), null when absent; anything else is a problem, and
 * so is text the database cannot store (YAML escapes can write U+0000 or half a surrogate pair: `"\0"`, `"\uD800"`).
 */
function textOf(value: unknown, key: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = String(value);
    const problem = unstorable(text);
    if (problem) throw new FileProblem(`Front matter "${key}" ${problem}.`);
    return text.trim() || null;
  }
  throw new FileProblem(`Front matter "${key}" must be text.`);
}

function tagsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (!list) throw new FileProblem('Front matter "tags" must be a list of text.');
  return list.map((t) => textOf(t, 'tags')).filter((t): t is string => !!t);
}

const squash = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The stored templateType of a front matter `type`: a templateType (`how_to_guide`), a kind (`how-to-guide`) or
 * either's label ("How-To Guide"), in any case; none for the plain kinds. A documents file may only name the
 * document types.
 */
export function templateTypeOf(value: unknown, space: Space): TemplateType | null {
  const text = textOf(value, 'type');
  if (!text) return null;
  const key = squash(text);
  const kind = kbTypes.find((k) => squash(k) === key || squash(ITEM_TYPES[k].label) === key);
  const type = kind
    ? ITEM_TYPES[kind].templateType
    : templateTypes.find((t) => squash(t) === key || squash(TEMPLATE_TYPE_LABELS[t]) === key);
  if (type === undefined) throw new FileProblem(`Front matter "type" is not a type we know ("${text}").`);
  if (space === 'documents' && type !== null && !DOCUMENT_TEMPLATE_TYPES.includes(type)) {
    throw new FileProblem(`Front matter "type" names a kind documents do not have ("${text}").`);
  }
  return type;
}

/** The front matter as a map and the text after it. */
function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  if (EMPTY_FRONT_MATTER.test(text)) return { data: {}, body: text.replace(EMPTY_FRONT_MATTER, '') };
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  let data: unknown;
  try {
    data = parseYaml(match[1], { maxAliasCount: 50, prettyErrors: false });
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    throw new FileProblem(`Front matter is not valid YAML: ${why}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new FileProblem('Front matter must be a map of keys (title, category, tags, type, excerpt).');
  }
  return { data: data as Record<string, unknown>, body: text.slice(match[0].length) };
}

/** The first `# heading` outside code fences, and the body without it when it leads and more text follows. */
function firstHeading(body: string): { title: string; rest: string } | null {
  const lines = body.split('\n');
  let fence: string | null = null;
  let leading = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const opens = FENCE.exec(line)?.[1];
    if (fence) {
      if (opens && opens[0] === fence[0] && opens.length >= fence.length) fence = null;
    } else if (opens) {
      fence = opens;
    } else {
      const heading = HEADING.exec(line)?.[1]?.trim();
      if (heading) {
        const after = lines.slice(i + 1).join('\n');
        // A file that is only its heading keeps it: an item needs some content.
        return { title: heading, rest: leading && after.trim() ? after.replace(/^\s*\n/, '') : body };
      }
    }
    if (line.trim()) leading = false;
  }
  return null;
}

/**
 * Reads one Markdown file's text into an item (throws FileProblem): front matter first, then the heading, the file
 * name, the folder. A plain kind of knowledge item takes its kind's default category at the top level.
 */
export function readMarkdownItem(path: string, text: string, space: Space): MarkdownItem {
  const { data, body } = splitFrontMatter(text.replace(/^\uFEFF/, ''));
  let content = body;
  let title = textOf(data.title, 'title');
  if (!title) {
    const heading = firstHeading(body);
    if (heading) ({ title, rest: content } = heading);
  }
  const templateType = templateTypeOf(data.type, space);
  const folder = baseName(folderOf(path) || '.');
  const defaultCategory = space === 'knowledge' ? ITEM_TYPES[kbTypeOf(templateType)].category : '';
  return {
    title: title ?? fileTitle(path),
    content: content.replace(/^\s*\n/, ''),
    category: textOf(data.category, 'category') ?? (folderOf(path) ? folder : defaultCategory || null),
    tags: tagsOf(data.tags),
    templateType,
    excerpt: textOf(data.excerpt, 'excerpt'),
  };
}

/** A link target as written, without the angle brackets and backslash escapes Markdown allows around it. */
const unwrapTarget = (raw: string) => raw.replace(/^<(.*)>$/, '$1').replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Remote (`https:`, `data:`, `//host`) and absolute (`/objects/…`) targets stay as they are. */
export const isRelativeTarget = (target: string) =>
  !!target && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('/') && !target.startsWith('#');

/** An `<img>` tag's `src` value: double-quoted (1), single-quoted (2) or unquoted (3). */
const IMG_SRC = /<img\s(?:[^>]*?\s)?src\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An HTML attribute value as the browser reads it: `&amp;`, `&lt;`, `&#38;`, `&#x26;` … decoded. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/gi, (all, name: string) => {
    if (!name.startsWith('#')) return NAMED[name.toLowerCase()];
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : all;
  });
}

/** The `src` values of the `<img>` tags of an HTML token: the target (decoded) and where its value lies in `html`. */
function* imgSources(html: string): Generator<{ target: string; from: number; to: number }> {
  for (const m of html.matchAll(IMG_SRC)) {
    const value = m[1] ?? m[2] ?? m[3];
    const to = m.index + m[0].length - (m[3] === undefined ? 1 : 0);
    yield { target: decodeEntities(value), from: to - value.length, to };
  }
}

/** A token's own tokens, in the order of the text; none for an image (its alt text is text, never an image). */
function childrenOf(token: Token): Token[] | null {
  if (token.type === 'image') return null;
  if (token.type === 'table') {
    const cells = [...token.header, ...token.rows.flat()] as { tokens: Token[] }[];
    return cells.flatMap((cell) => cell.tokens);
  }
  if (token.type === 'list') return token.items as Token[];
  return 'tokens' in token && Array.isArray(token.tokens) ? (token.tokens as Token[]) : null;
}

/** Every token of the text that holds no other (text, code, an image, HTML, a link definition …), in order. */
function eachLeaf(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    const children = childrenOf(token);
    if (children) eachLeaf(children, visit);
    else visit(token);
  }
}

/** Every relative image target of a Markdown text (inline, reference-style and HTML `<img>`), as written. */
export function imageTargets(markdown: string): string[] {
  const found = new Set<string>();
  eachLeaf(marked.lexer(markdown), (token) => {
    if (token.type === 'image') found.add(token.href);
    if (token.type === 'html') for (const { target } of imgSources(token.raw)) found.add(target);
  });
  return [...found].filter(isRelativeTarget);
}

/**
 * The archive path a relative image target points at from the file at `path` (percent-escapes decoded, query and
 * fragment dropped), or a FileProblem when it climbs out of the upload.
 */
export function resolveImage(path: string, target: string): string {
  let clean = target.replace(/[?#].*$/, '').replace(/\\/g, '/');
  try {
    clean = decodeURIComponent(clean);
  } catch {
    // not percent-encoded after all: as written
  }
  const parts = folderOf(path).split('/').filter(Boolean);
  for (const part of clean.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (!parts.pop()) throw new FileProblem(`Image "${target}" points outside the upload.`);
  }
  return parts.join('/');
}

/** Where a token's raw text lies in the source: the source offset of each of its lines. */
type Place = number[];

/** Markup between two tokens (bullets, `>`, emphasis, a link's destination) is seldom longer than this. */
const NEAR = 256;
/** Far searches that found nothing, after which only near ones are tried (a text built to make them slow). */
const FAR_MISSES = 16;

/**
 * Finds tokens' raw text in the Markdown source, in the order marked lexed them, each after the one before. A
 * token inside a list or quote is its source less the indentation and `>` of each line, so each of its lines is
 * looked for within one source line. Searching on from the last token found means an image's text is never taken
 * from a code block or an escaped `\![…]` before it.
 */
class SourceCursor {
  private at = 0;
  private farMisses = 0;
  constructor(private readonly src: string) {}

  /** `far`: the token must be found wherever it is (images, code, HTML); else only just after the last one. */
  find(raw: string, far: boolean): Place | null {
    if (far && this.farMisses >= FAR_MISSES) return null;
    const lines = raw.split('\n');
    const limit = far ? this.src.length : Math.min(this.src.length, this.at + raw.length + NEAR);
    let from = this.at;
    for (let tries = 0; tries < 64; tries++) {
      const first = this.src.indexOf(lines[0], from);
      if (first < 0 || first + lines[0].length > limit) break;
      const place = this.rest(lines, first, limit);
      if (place) {
        const last = lines.length - 1;
        this.at = place[last] + lines[last].length;
        return place;
      }
      from = first + 1;
    }
    if (far) this.farMisses++;
    return null;
  }

  /** Each line after the first within the next source line; null when one is not. */
  private rest(lines: string[], first: number, limit: number): Place | null {
    const place = [first];
    let end = first + lines[0].length;
    for (let i = 1; i < lines.length; i++) {
      const lineStart = this.src.indexOf('\n', end) + 1;
      if (lineStart === 0 || lineStart > limit) return null;
      const next = this.src.indexOf('\n', lineStart);
      const lineEnd = next < 0 ? this.src.length : next;
      const at = this.src.indexOf(lines[i], lineStart);
      if (at < 0 || at + lines[i].length > lineEnd) return null;
      place.push(at);
      end = at + lines[i].length;
    }
    return place;
  }
}

/** The source offsets of [from, to) of a token's raw text at `place`; null when it crosses a line (not rewritten). */
function sourceSpan(raw: string, place: Place, from: number, to: number): [number, number] | null {
  const line = raw.slice(0, from).split('\n').length - 1;
  if (raw.slice(from, to).includes('\n')) return null;
  const lineStart = raw.lastIndexOf('\n', from - 1) + 1;
  return [place[line] + from - lineStart, place[line] + to - lineStart];
}

/** Where a link destination starting at `i` (after spaces) ends, if it reads as `href`: `<a b.png>` or `a(1).png`. */
function destinationAt(raw: string, i: number, href: string, inParens: boolean): [number, number] | null {
  let start = i;
  while (start < raw.length && /[ \t\n]/.test(raw[start])) start++;
  let end: number;
  if (raw[start] === '<') {
    end = raw.indexOf('>', start) + 1;
    if (end === 0) return null;
  } else {
    let depth = 0;
    for (end = start; end < raw.length; end++) {
      const ch = raw[end];
      if (ch === '\\') end++;
      else if (/\s/.test(ch)) break;
      else if (ch === '(') depth++;
      else if (ch === ')' && inParens && depth-- === 0) break;
    }
  }
  return end > start && unwrapTarget(raw.slice(start, end)) === href ? [start, end] : null;
}

/** The destination of an inline image `![alt](dest "title")` in its raw text; null when it is reference-style. */
function inlineDestination(raw: string, href: string): [number, number] | null {
  if (!raw.endsWith(')')) return null;
  for (let open = raw.lastIndexOf('](') + 1; open > 1; open = raw.lastIndexOf('](', open - 2) + 1) {
    const span = destinationAt(raw, open + 1, href, true);
    if (span) return span;
  }
  return null;
}

/** The destination of a link definition `[ref]: dest "title"` in its raw text. */
function definitionDestination(raw: string, href: string): [number, number] | null {
  const label = /^[ \t]*\[(?:[^\]\\]|\\.)*\]:/.exec(raw);
  return label ? destinationAt(raw, label[0].length, href, false) : null;
}

/**
 * The Markdown with each relative image target in `urls` (as written → our URL) replaced where marked found the
 * image (an inline image's destination, a link definition an image uses, an `<img>`'s src): code blocks, code spans
 * and text that only looks like an image stay as they are. A target still there afterwards (an image written so
 * that its place cannot be told) is the file's problem, never a broken link.
 */
export function rewriteImages(markdown: string, urls: Map<string, string>): string {
  if (urls.size === 0) return markdown;
  const cursor = new SourceCursor(markdown);
  const edits: { from: number; to: number; url: string }[] = [];
  const edit = (raw: string, place: Place, span: [number, number] | null, url: string) => {
    const at = span && sourceSpan(raw, place, ...span);
    if (at) edits.push({ from: at[0], to: at[1], url });
  };
  eachLeaf(marked.lexer(markdown), (token) => {
    if (!token.raw.trim()) return;
    const far = ['image', 'html', 'def', 'code', 'codespan'].includes(token.type);
    const place = cursor.find(token.raw, far);
    if (!place) return;
    if (token.type === 'image' || token.type === 'def') {
      const url = urls.get(token.href);
      const span =
        token.type === 'image'
          ? inlineDestination(token.raw, token.href)
          : definitionDestination(token.raw, token.href);
      if (url) edit(token.raw, place, span, url);
    } else if (token.type === 'html') {
      for (const src of imgSources(token.raw)) {
        const url = urls.get(src.target);
        if (url) edit(token.raw, place, [src.from, src.to], url);
      }
    }
  });
  let out = '';
  let last = 0;
  for (const { from, to, url } of edits.sort((a, b) => a.from - b.from)) {
    if (from < last) continue;
    out += markdown.slice(last, from) + url;
    last = to;
  }
  out += markdown.slice(last);
  const left = imageTargets(out).find((target) => urls.has(target));
  if (left !== undefined) {
    throw new FileProblem(`Image "${left}" could not be linked to the imported image; write it as ![alt](${left}).`);
  }
  return out;
}
