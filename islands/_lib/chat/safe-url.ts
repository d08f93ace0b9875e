/** Spec §5: links are live only for http, https, irc, ircs, mailto, xmpp and relative links. */
const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp):/i;

/** The href to render, or undefined when its protocol is not allowed (the link is blanked). */
export function safeHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  // Browsers ignore tabs/newlines and leading control characters in URLs: judge what they would see.
  const url = href.replace(/[\u0000-\u0020\u007f]/g, '');
  const colon = url.indexOf(':');
  if (colon === -1) return href.trim();
  const beforeColon = url.slice(0, colon);
  // A colon after the first "/", "?" or "#" belongs to a relative path, not a protocol.
  if (/[/?#]/.test(beforeColon)) return href.trim();
  return SAFE_PROTOCOL.test(url) ? href.trim() : undefined;
}

/** Links starting with "/" navigate inside the app; everything else opens in a new tab. */
export const isInAppLink = (href: string) => href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\');
