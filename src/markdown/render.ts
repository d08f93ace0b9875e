import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, breaks: false });

const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;
/** `<!-- width=300px height=auto -->` right before an inline image: its display size. */
const SIZED_IMAGE =
  /<!--\s*width\s*=\s*"?([\w.%]+)"?\s+height\s*=\s*"?([\w.%]+)"?\s*-->[ \t]*\r?\n?[ \t]*!\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"([^"\n]*)")?\s*\)/g;

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A size from the comment as an attribute value: "300px" → "300", "auto"/other → none. */
function sizeAttr(name: string, value: string): string {
  const m = /^(\d{1,5})(px)?$/i.exec(value);
  return m ? ` ${name}="${m[1]}"` : '';
}

/** Turns sized-image comments into <img> tags with width/height (sanitised afterwards like everything else). */
export function applyImageSizes(markdown: string): string {
  return markdown.replace(SIZED_IMAGE, (_all, w: string, h: string, alt: string, src: string, title?: string) => {
    const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
    return `<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}"${titleAttr}${sizeAttr('width', w)}${sizeAttr('height', h)}>`;
  });
}

const isAppLink = (href: string) => href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\');

const options: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'ins', 'details', 'summary', 'input'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    code: ['class'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      if (!/^(https?:|mailto:)/i.test(href.trim()) || isAppLink(href)) {
        const { target: _t, rel: _r, ...rest } = attribs;
        return { tagName, attribs: rest };
      }
      return { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } };
    },
    img: (tagName, attribs) => {
      const src = (attribs.src ?? '').trim();
      const badData = /^data:/i.test(src) && !SAFE_DATA_IMAGE.test(src);
      const { src: _s, ...rest } = attribs;
      return { tagName, attribs: { ...(badData ? rest : attribs), loading: 'lazy' } };
    },
    input: (tagName, attribs) =>
      attribs.type === 'checkbox'
        ? {
            tagName,
            attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) },
          }
        : { tagName: 'span', attribs: {} },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * Markdown → sanitised HTML: no script, handlers, iframes or javascript:/data: links; data: only for inline images.
 * `beforeSanitise` may change the parsed HTML first (server placeholders put their values in there).
 */
export function renderMarkdown(markdown: string | null | undefined, beforeSanitise?: (html: string) => string): string {
  if (!markdown) return '';
  const html = marked.parse(applyImageSizes(markdown), { async: false });
  return sanitizeHtml(beforeSanitise ? beforeSanitise(html) : html, options);
}
