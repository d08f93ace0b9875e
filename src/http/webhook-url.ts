/**
 * Which URLs a webhook may post to (alert webhooks and outgoing webhooks): the parse, the host check against the
 * setting that lists the allowed hosts, and https (plain http only to a loopback host). Pure: no Node, no server code.
 */

/** True when `host` is one of `allowed` or a subdomain of one. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((a) => h === a || h.endsWith(`.${a}`));
}

/** Loopback names and addresses: plain http is accepted only for these (tests, a relay on the same machine). */
export const isLoopbackHost = (host: string) =>
  /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i.test(host.replace(/^\[|\]$/g, ''));

/** The body a webhook gets when none is chosen: Slack's and Teams' hosts get theirs. */
export function webhookFormatOf(url: string): 'json' | 'slack' | 'teams' {
  const host = new URL(url).hostname.toLowerCase();
  if (hostAllowed(host, ['hooks.slack.com'])) return 'slack';
  if (hostAllowed(host, ['webhook.office.com', 'office.com', 'logic.azure.com', 'powerplatform.com'])) return 'teams';
  return 'json';
}

export interface WebhookUrlRule {
  /** The field named in messages ("webhookUrl"). */
  field: string;
  /** The setting that lists the allowed hosts ("ALERT_WEBHOOK_HOSTS"), and what it holds, for the message. */
  setting: string;
  listed: string;
  /** Whether the URL's host (lower case, IPv6 without brackets) is allowed. */
  allowed: (host: string) => boolean;
}

/**
 * Why a webhook URL may not be used, or null: it must parse, name an allowed host and be https (plain http only to
 * a loopback host an admin allowed).
 */
export function webhookUrlProblem(url: string, rule: WebhookUrlRule): string | null {
  const { field } = rule;
  if (!URL.canParse(url)) return `${field} must be a URL.`;
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `${field} must be an https:// URL.`;
  if (u.username || u.password) return `${field} must not carry a user name or password.`;
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (!rule.allowed(host))
    return `${field}'s host ${u.hostname} is not allowed (${rule.setting}: ${rule.listed || 'empty, so none is'}).`;
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) return `${field} must be an https:// URL.`;
  return null;
}
