import { isIP } from 'node:net';
import { DEFAULT_DENY_CIDRS } from '../config';
import { type HostsAndCidrs, parseCidrList } from '../http/cidr-list';
import type { VettedAddress } from '../http/webhook-post';
import { hostAllowed, isLoopbackHost, webhookUrlProblem } from '../http/webhook-url';
import { resolveTarget, type TargetPolicy } from '../servers/service';

/**
 * Where outgoing webhooks may post: WEBHOOK_ALLOW_HOSTS lists host names (each with its subdomains) and
 * addresses/CIDRs; nothing else is called, and link-local and cloud metadata addresses never (whatever is listed).
 * - a listed host name: any address it resolves to but those (and loopback, unless the name is localhost);
 * - any other host, or an address: every address it resolves to must be inside a listed CIDR.
 * The host is resolved and vetted at each post, which connects to the vetted address only (src/http/webhook-post.ts).
 */

const SETTING = 'WEBHOOK_ALLOW_HOSTS';
const NEVER = 'link-local and cloud metadata addresses are never called';
const NEVER_CIDRS = parseCidrList(DEFAULT_DENY_CIDRS);
/** A listed public name that resolves to this host is refused too (a name is trusted with the networks, not with us). */
const NEVER_FOR_NAMES = parseCidrList(`${DEFAULT_DENY_CIDRS},127.0.0.0/8,0.0.0.0/8,::1/128,::/128`);
const ANYWHERE = parseCidrList('0.0.0.0/0,::/0');
const NOWHERE = parseCidrList('');

/** How long registration waits for a host name to resolve (when only a CIDR can allow it). */
const LOOKUP_DEADLINE_MS = 3_000;

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '');
const isName = (host: string) => !isIP(bare(host));

/** The address policy for one URL host. */
export function policyFor(host: string, allow: HostsAndCidrs): TargetPolicy {
  if (isName(host) && hostAllowed(host, allow.hosts)) {
    const deny = isLoopbackHost(host) ? NEVER_CIDRS : NEVER_FOR_NAMES;
    return { allow: ANYWHERE, deny, labels: { allow: SETTING, deny: `${NEVER}; nor loopback by a public name` } };
  }
  return { allow: allow.cidrs ?? NOWHERE, deny: NEVER_CIDRS, labels: { allow: SETTING, deny: NEVER } };
}

/** Resolves and vets a URL host for one post. */
export const vetHost = (host: string, allow: HostsAndCidrs): Promise<VettedAddress> =>
  resolveTarget(host, policyFor(host, allow));

/** Why the URL is not an allowed target, without looking anything up (null: it may be, see targetProblem). */
export function urlProblem(url: string, allow: HostsAndCidrs): string | null {
  if (!allow.entries.length)
    return `No webhook receiver is allowed yet: ${SETTING} is empty. An administrator lists the receivers' host names or networks there first.`;
  return webhookUrlProblem(url, {
    field: 'url',
    setting: SETTING,
    listed: allow.entries.join(', '),
    // A name outside the list may still resolve into a listed network: targetProblem looks it up.
    allowed: (host) => hostAllowed(host, allow.hosts) || (isName(host) ? !!allow.cidrs : true),
  });
}

/**
 * Why the URL may not be registered, or null: urlProblem, then the addresses its host stands for (an address at once;
 * a name not listed itself is looked up, and every address it has must be inside a listed network).
 */
export async function targetProblem(url: string, allow: HostsAndCidrs): Promise<string | null> {
  const problem = urlProblem(url, allow);
  if (problem) return problem;
  const host = new URL(url).hostname;
  if (isName(host) && hostAllowed(host, allow.hosts)) return null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<VettedAddress>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: 'host name lookup timed out' }), LOOKUP_DEADLINE_MS);
  });
  const target = await Promise.race([vetHost(host, allow), deadline]).finally(() => clearTimeout(timer));
  if (target.ok) return null;
  const reason = target.reason.replace(/^Refused: /, '');
  return `url's host ${host} is not allowed (${SETTING}: ${allow.entries.join(', ')}): ${reason}.`;
}
