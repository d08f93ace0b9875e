import GithubSlugger, { slug } from 'github-slugger';

/** One heading of a document, for its table of contents. */
export interface TocEntry {
  id: string;
  /** The heading's plain text (no markup, no anchor). */
  text: string;
  /** 1..6 */
  level: number;
}

/** Element ids of the app shell (src/ui) and the read page: a heading never takes one ("Main" becomes main-1). */
export const RESERVED_IDS: readonly string[] = [
  'main',
  'sidebar',
  'toasts',
  'global-search-input',
  'global-search-results',
  'confirm-delete',
  'servers-panel',
  'servers-panel-title',
  'confirm-delete-title',
];

/** A heading as sanitize-html writes it: without attributes, so no id of the author's is left to keep. */
const HEADING = /<h([1-6])>([\s\S]*?)<\/h\1>/g;

/** sanitize-html escapes exactly these four in text and attributes. */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot);/g, (entity) => ENTITIES[entity])
    .replace(/\s+/g, ' ')
    .trim();

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Gives every heading of sanitised HTML a unique GitHub-style id and a "copy link" anchor, and lists the headings.
 * Runs after sanitising: the ids are ours alone, and the input holds no `<` but that of a real tag.
 */
export function anchorHeadings(html: string): { html: string; headings: TocEntry[] } {
  const slugger = new GithubSlugger();
  for (const id of RESERVED_IDS) slugger.slug(id);
  const headings: TocEntry[] = [];
  const anchored = html.replace(HEADING, (_all, level: string, inner: string) => {
    const text = plainText(inner);
    const id = slugger.slug(slug(text) ? text : 'section'); // "## !!!" has no letter to slug
    headings.push({ id, text, level: Number(level) });
    const attr = escapeAttr(id); // the slugger leaves no quote or bracket; escaped all the same
    const anchor = `<a class="heading-anchor" href="#${attr}" aria-label="Link to this section: ${escapeAttr(text)}">#</a>`;
    return `<h${level} id="${attr}">${inner.trimEnd()} ${anchor}</h${level}>`;
  });
  return { html: anchored, headings };
}
