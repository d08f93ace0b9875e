import type { Item } from './schemas';

/**
 * What a share link's page shows of an item's rendered content: its own images through the share (private ones
 * too), and no link into the app (a shared page opens nothing else).
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** An uploaded image's address (/objects/{id}, optionally with our origin before it). */
const OBJECT_URL = new RegExp(`(?:https?://[^\\s"'()]*?)?/objects/(${UUID})`, 'g');

/** The ids of the uploaded images that belong to the item: attached to it or shown in its content. */
export function itemImageIds(item: Pick<Item, 'content' | 'attachedImages'>): Set<string> {
  const text = [item.content, ...item.attachedImages].join('\n');
  return new Set([...text.matchAll(OBJECT_URL)].map((m) => m[1].toLowerCase()));
}

const isAppHref = (href: string, origin: string) =>
  (href.startsWith('/') && !href.startsWith('//')) || href === origin || href.startsWith(`${origin}/`);

/**
 * Rendered (sanitised) content for the share page: images of ours load through `/s/{token}/images/{id}`, and links
 * into the app lose their href (their text stays). In-page anchors and outside links are kept.
 */
export function shareHtml(html: string, token: string, appOrigin: string): string {
  return html
    .replace(/<img ([^>]*?)src="([^"]*)"/g, (tag, before: string, src: string) => {
      const path = src.startsWith(`${appOrigin}/`) ? src.slice(appOrigin.length) : src;
      const id = new RegExp(`^/objects/(${UUID})$`).exec(path)?.[1];
      return id ? `<img ${before}src="/s/${token}/images/${id.toLowerCase()}"` : tag;
    })
    .replace(/<a ([^>]*?)href="([^"]*)"/g, (tag, before: string, href: string) =>
      isAppHref(href.replace(/&amp;/g, '&'), appOrigin) ? `<a${before.trim() ? ` ${before.trim()}` : ''}` : tag,
    );
}
