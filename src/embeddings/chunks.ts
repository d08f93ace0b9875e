import { renderDocument } from '../markdown/document';

/** One part of an item, cut at its headings, as it is embedded and cited. */
export interface Chunk {
  /** The heading it starts at; null for the text before the first heading. */
  heading: string | null;
  /** That heading's id on the read page, so a citation links to `#anchor`. */
  anchor: string | null;
  /** Its plain text (the heading first). */
  body: string;
}

/** A part longer than this is cut again at paragraph ends (models read a few thousand characters at most). */
export const MAX_CHUNK_CHARS = 2_000;
/** Parts embedded per item at most (an enormous page is findable by its first ones). */
export const MAX_CHUNKS = 200;

/** Headings as anchorHeadings() writes them on the read page: `<hN id="…">text <a class="heading-anchor"…>#</a></hN>`. */
const HEADING = /<h[1-6] id="([^"]*)">([\s\S]*?)<\/h[1-6]>/g;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

const plainText = (html: string) =>
  html
    .replace(/<a class="heading-anchor"[^>]*>#<\/a>|<button[^>]*>[^<]*<\/button>/g, '')
    .replace(/<\/(p|li|tr|h[1-6]|pre|blockquote|div)>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e])
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();

/** Cuts a long text at paragraph ends (or hard, for one huge paragraph) into parts of at most MAX_CHUNK_CHARS. */
function cut(text: string): string[] {
  const parts: string[] = [];
  let part = '';
  for (const line of text.split('\n')) {
    for (let rest = line; rest.length; rest = rest.slice(MAX_CHUNK_CHARS)) {
      const piece = rest.slice(0, MAX_CHUNK_CHARS);
      if (part && part.length + piece.length + 1 > MAX_CHUNK_CHARS) {
        parts.push(part);
        part = '';
      }
      part = part ? `${part}\n${piece}` : piece;
    }
  }
  if (part) parts.push(part);
  return parts;
}

/**
 * An item's text in parts, one per heading (and the text before the first), each with the read page's anchor of
 * its heading: rendered as the read page renders it, so anchors match and code, tables and lists read as text.
 */
export function chunkItem(title: string, content: string): Chunk[] {
  const html = renderDocument(content).html;
  const sections: { anchor: string | null; heading: string | null; html: string }[] = [];
  let last = 0;
  let open: { anchor: string | null; heading: string | null } = { anchor: null, heading: null };
  for (const m of html.matchAll(HEADING)) {
    sections.push({ ...open, html: html.slice(last, m.index) });
    open = { anchor: m[1], heading: plainText(m[2]) };
    last = m.index + m[0].length;
  }
  sections.push({ ...open, html: html.slice(last) });

  const chunks: Chunk[] = [];
  for (const s of sections) {
    const text = plainText(s.html);
    if (!text && !s.heading) continue;
    const lead = s.heading ? `${title} — ${s.heading}` : title;
    for (const piece of text ? cut(text) : ['']) {
      chunks.push({ heading: s.heading, anchor: s.anchor, body: piece ? `${lead}\n${piece}` : lead });
    }
  }
  if (!chunks.length) chunks.push({ heading: null, anchor: null, body: title });
  return chunks.slice(0, MAX_CHUNKS);
}
