/** The built-in engine's intent rules: a question → what to look up. Pure; no database. */

export type Intent =
  | { kind: 'help' }
  | { kind: 'server'; name: string }
  | { kind: 'contacts'; text?: string }
  | { kind: 'logs' }
  | { kind: 'issues' }
  | { kind: 'docs'; terms: string }
  | { kind: 'topology' }
  | { kind: 'byLocation' }
  | { kind: 'location'; location: string }
  | { kind: 'ips' }
  | { kind: 'status'; statuses: string[]; activeOnly: boolean }
  | { kind: 'servers'; environment?: string; term?: string }
  | { kind: 'unknown'; terms: string };

const STOP = new Set(
  (
    'a an and any are about all at be by can could details detail display do does for from get give have how i in ' +
    'info information is it its list me my of on or our please related relating regarding show tell the their them there ' +
    'these this those to us view we what which who with you your find search look up see want need know some every each ' +
    'servers server hosts host machines machine box boxes documentation docs doc documents document articles article ' +
    'guides guide knowledge base kb runbook runbooks procedures procedure sop where'
  ).split(' '),
);

const ENVIRONMENTS = ['production', 'staging', 'development'];
const STATUS_WORDS: Record<string, string> = {
  online: 'online',
  offline: 'offline',
  warning: 'warning',
  warnings: 'warning',
  maintenance: 'maintenance',
  unknown: 'unknown',
  down: 'offline',
};

/** Significant words of a question (stop words and punctuation dropped; case kept). */
export function keywords(query: string): string[] {
  return query
    .split(/[^\p{L}\p{N}.:_]+/u)
    .map((w) => w.replace(/^[.:]+|[.:]+$/g, ''))
    .filter((w) => w.length > 1 && !STOP.has(w.toLowerCase()));
}

const has = (q: string, re: RegExp) => re.test(q);

/** A location named in the question ("servers in Auburn location", "at the Sydney site"). */
export function locationOf(query: string): string | undefined {
  const m =
    /\b(?:in|at)\s+(?:the\s+)?([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}?)\s+(?:location|site|office|data\s?cent(?:er|re)|dc|campus|store)\b/iu.exec(
      query,
    ) ??
    /\blocation\s+(?:of\s+|is\s+|=\s*)?["']?([\p{L}\p{N}][\p{L}\p{N}'-]{1,40})/iu.exec(query) ??
    /\b(?:in|at)\s+(\p{Lu}[\p{L}\p{N}'-]{1,40}(?:\s+\p{Lu}[\p{L}\p{N}'-]{1,40})?)/u.exec(query);
  const loc = m?.[1]?.trim();
  if (!loc || /^(production|staging|development|the|all|my|our)$/i.test(loc)) return undefined;
  return loc;
}

/** Decides what to look up. `serverNames` lets a question name one server. */
export function detectIntent(query: string, serverNames: string[] = []): Intent {
  const q = query.toLowerCase();
  if (/^\s*(hi|hello|hey|help|what can you do|who are you)\b/.test(q) && q.length < 40) return { kind: 'help' };

  const named = serverNames
    .filter(
      (n) =>
        n.length > 2 &&
        new RegExp(`(^|[^\\w-])${n.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(q),
    )
    .sort((a, b) => b.length - a.length)[0];
  if (named) return { kind: 'server', name: named };

  if (has(q, /\b(contacts?|support team|on[- ]?call|team members?|escalat\w*|who (is|are|should|do|can|owns))\b/)) {
    const text = keywords(query).filter((w) => !/^(support|team|contacts?|members?|who|call|oncall)$/i.test(w))[0];
    return { kind: 'contacts', text };
  }
  if (has(q, /\b(logs?|audit|events?|activity|activities|history of changes|recent changes)\b/))
    return { kind: 'logs' };
  if (has(q, /\b(issues?|problems?|incidents?|outages?|alerts?|errors?|failing|failures?|failed|broken)\b/))
    return { kind: 'issues' };
  if (
    has(
      q,
      /\b(docs?|documentation|documents?|articles?|guides?|knowledge|kb|runbooks?|procedures?|sops?|how (do i|to|can i))\b/,
    )
  ) {
    const terms = keywords(query).filter((w) => !/^(recent|latest|new|newest|browse|how|do|to)$/i.test(w));
    return { kind: 'docs', terms: terms.join(' ') };
  }
  if (has(q, /\b(network|networks|topology|zones?|subnets?|vlans?|domains?|dmz)\b/)) return { kind: 'topology' };
  if (has(q, /\b(group(ed)?|by|per) (by )?locations?\b|\blocations\b|\bsites\b/)) return { kind: 'byLocation' };
  const location = locationOf(query);
  if (location) return { kind: 'location', location };
  if (has(q, /\bips?\b|ip address|addresses/)) return { kind: 'ips' };

  const statuses = [
    ...new Set(
      q
        .split(/\W+/)
        .map((w) => STATUS_WORDS[w])
        .filter(Boolean),
    ),
  ];
  if (has(q, /\b(status|health|healthy|active|running|up)\b/) || statuses.length) {
    return { kind: 'status', statuses, activeOnly: /\b(active|running)\b/.test(q) };
  }
  const environment = ENVIRONMENTS.find((e) => q.includes(e));
  if (has(q, /\b(servers?|hosts?|machines?|inventory|infrastructure)\b/) || environment) {
    const term = keywords(query).filter(
      (w) => !ENVIRONMENTS.includes(w.toLowerCase()) && !/^(inventory|infrastructure|overview|environment)$/i.test(w),
    )[0];
    return { kind: 'servers', environment, term };
  }
  return { kind: 'unknown', terms: keywords(query).join(' ') };
}

/** Suggested actions (from the spec's list) that fit what was just answered. */
export function suggestionsFor(intent: Intent['kind'], posRelated = false): string[] {
  if (posRelated) return ['View POS documentation', 'Check server status', 'Show network topology'];
  switch (intent) {
    case 'servers':
    case 'location':
      return ['Check server status', 'List all server IPs', 'View location details', 'Show network topology'];
    case 'status':
      return ['View recent issues', 'List all server IPs', 'Show network topology', 'View all servers'];
    case 'topology':
      return ['List all server IPs', 'View location details', 'Check server status'];
    case 'ips':
      return ['Show network topology', 'View location details', 'Check server status'];
    case 'byLocation':
      return ['Show Auburn servers', 'Check server status', 'Show network topology'];
    case 'docs':
      return ['Search documentation', 'Browse knowledge base', 'View POS documentation'];
    case 'issues':
      return ['Check server status', 'Check system logs', 'Contact support team'];
    case 'logs':
      return ['View recent issues', 'Check server status'];
    case 'contacts':
      return ['View recent issues', 'Browse knowledge base'];
    case 'server':
      return ['View recent issues', 'Check server status', 'View all servers'];
    default:
      return ['Show all servers', 'Check server status', 'View recent issues', 'Contact support team'];
  }
}
