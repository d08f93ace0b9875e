import { anchorHeadings, type TocEntry } from './headings';
import { renderMarkdown } from './render';

export { RESERVED_IDS, type TocEntry } from './headings';

const TABLE_SCROLL = '<div class="table-scroll" role="region" tabindex="0" aria-label="Table">';
/** Hidden until src/client/reading.ts wires it: without JavaScript there is no dead button. */
const COPY_BUTTON =
  '<button type="button" class="btn btn--secondary btn--sm code-block__copy" data-copy-code hidden>Copy</button>';

/**
 * Tables scroll inside themselves, code blocks get a copy button, images decode off the main thread. Runs on
 * sanitised HTML, where table and pre carry no attribute and a `<` only opens a real tag.
 */
function addReadingAids(html: string): string {
  return html
    .replace(/<table>/g, `${TABLE_SCROLL}<table>`)
    .replace(/<\/table>/g, '</table></div>')
    .replace(/<pre>/g, '<div class="code-block"><pre>')
    .replace(/<\/pre>/g, `</pre>${COPY_BUTTON}</div>`)
    .replace(/<img /g, '<img decoding="async" ');
}

/**
 * A knowledge item's read page: renderMarkdown's sanitised HTML (same safety) plus reading aids, and its headings
 * for a table of contents. `beforeSanitise` as renderMarkdown's.
 */
export function renderDocument(
  markdown: string | null | undefined,
  beforeSanitise?: (html: string) => string,
): { html: string; headings: TocEntry[] } {
  return anchorHeadings(addReadingAids(renderMarkdown(markdown, beforeSanitise)));
}
