import {
  type CreateNodeOptions,
  type DocumentOptions,
  type SchemaOptions,
  stringify,
  type ToStringOptions,
} from 'yaml';
import type { Item, Space } from '../knowledge/schemas';
import { ITEM_TYPES, kbTypeOf, SPACES } from '../knowledge/shared';

/**
 * The markdown file of an item (the format import reads, issue 25): YAML front matter between `---` lines, then the
 * content. Keys: title, category, tags, type, excerpt (what import honours), and id, space, templateType, version,
 * owner, updatedAt, reviewDueAt (import ignores them). `type` is what import reads back as the item's templateType
 * (typeOf); `templateType` is the stored value. Written with the yaml package.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** `/objects/{id}` as a link's target in markdown or HTML: after `(`, a quote, `<`, `=` or a space. */
const objectLink = () => new RegExp(`(?<=^|[\\s("'<=])/objects/(${UUID})(?![0-9a-z-])`, 'gim');

/** The ids of the stored images the content links to (`/objects/{id}`), once each, in order. */
export function imageIdsIn(content: string): string[] {
  return [...new Set([...content.matchAll(objectLink())].map((m) => m[1].toLowerCase()))];
}

/** The content with each `/objects/{id}` link whose id `paths` names pointing at that (relative) path instead. */
export function rewriteImageLinks(content: string, paths: ReadonlyMap<string, string>): string {
  return content.replace(objectLink(), (link, id: string) => paths.get(id.toLowerCase()) ?? link);
}

/**
 * The front matter's `type`, which import reads back as the same templateType: a knowledge item's kind when the kind
 * says it all (knowledge-base for none, how-to-guide for how_to_guide …), else the templateType itself (server_setup:
 * its kind, knowledge-base, would read back as none), as a document's type is.
 */
function typeOf(item: Item, space: Space): string | null {
  if (!SPACES[space].hasKinds) return item.templateType ?? null;
  const kind = kbTypeOf(item.templateType);
  return ITEM_TYPES[kind].templateType === (item.templateType ?? null) ? kind : item.templateType;
}

/** The front matter's keys, unset ones left out. */
export function frontMatterOf(item: Item, space: Space): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['id', item.id],
    ['title', item.title],
    ['space', space],
    ['type', typeOf(item, space)],
    ['templateType', item.templateType],
    ['category', item.category || null],
    ['tags', item.tags],
    ['excerpt', item.excerpt || null],
    ['version', item.version],
    ['owner', item.owner?.email ?? null],
    ['updatedAt', item.updatedAt],
    ['reviewDueAt', item.reviewDueAt],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Front matter is written for YAML 1.1 readers too (many static site generators and scripts): text they would read as
 * something else (yes, no, on, 2026-11-27, 1:20 …) is quoted, and so is `0o17` (an integer to YAML 1.2, which the
 * import reads). One line a value (no folding).
 */
const YAML_OPTIONS: CreateNodeOptions & DocumentOptions & SchemaOptions & ToStringOptions = {
  version: '1.1',
  customTags: (tags) => [...tags, 'intOct'],
  lineWidth: 0,
};

/**
 * The whole file: front matter, a blank line, the content (`content` as given: links already rewritten), byte for
 * byte (no newline added: import reads the same content back).
 */
export function itemMarkdown(item: Item, space: Space, content: string): string {
  return `---\n${stringify(frontMatterOf(item, space), YAML_OPTIONS)}---\n\n${content}`;
}
