/** The built-in engine's intent rules: a question → what to look up. Pure; no database. */
import { refersTo } from './follow-up';
import { offTopic } from './words';

/** What the fleet holds (tools.fleetFacts): the words a question about servers is read by. */
export interface FleetVocabulary {
  names: string[];
  locations: string[];
  functions: string[];
  owners: string[];
  systems: string[];
}

/** Server filters read from one question (any combination). */
export interface FleetFilters {
  location?: string;
  statuses?: string[];
  environment?: string;
  function?: string;
  owner?: string;
  os?: string;
}

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
  | { kind: 'fleet'; filters: FleetFilters; within?: string[]; yesNo?: boolean }
  | { kind: 'offTopic' }
  | { kind: 'unknown'; terms: string };

const STOP = new Set(
  (
    'a an and any are about all at be by can could details detail display do does for from get give have how i in ' +
    'info information is it its list me my of on or our please related relating regarding show tell the their them there ' +
    'these this that those to us view we what which who with you your find search look up see want need know some every each ' +
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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordIn = (text: string, word: string) =>
  new RegExp(`(^|[^\\w-])${escapeRe(word.toLowerCase())}($|[^\\w-])`).test(text.toLowerCase());

const EMPTY_FLEET: FleetVocabulary = { names: [], locations: [], functions: [], owners: [], systems: [] };
/** Words of function names that say nothing about what a server does. */
const GENERIC = new Set(
  'server servers host hosts application app front end primary site the and of for a an'.split(' '),
);
const SERVER_WORDS = /\b(servers?|hosts?|machines?|boxe?s?|inventory|infrastructure|fleet|vms?)\b/;
const ISSUE_WORDS = /\b(issues?|problems?|incidents?|outages?|alerts?|errors?|failing|failures?|failed|broken)\b/;
const IGNORED_WITH_ISSUES = /^(right|now|current|currently|today|recent|recently|any|there|what|s)$/i;
const OWNER_WORDS = /\b(own|owns|owned|owner|owners|team|teams|belongs?|look(s)? after|responsible)\b/;
/** A name shaped like a server's (AUB-POS-01, db-07), not an IP address or a date. */
const SERVER_LIKE = /\b[a-z]{2,6}(?:-[a-z0-9]{1,8})*-\d{1,3}\b/i;

/** The function words of the question that the fleet's functions use ("POS", "domain controller"). */
function functionOf(q: string, fleet: FleetVocabulary): string | undefined {
  const known = new Set(
    fleet.functions.flatMap((f) => f.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !GENERIC.has(w)),
  );
  const words = q.match(/[\p{L}\p{N}]+/gu) ?? [];
  let phrase: string[] = [];
  for (const w of words) {
    const hit = known.has(w) ? w : w.endsWith('s') && known.has(w.slice(0, -1)) ? w.slice(0, -1) : undefined;
    if (hit) phrase.push(hit);
    else if (phrase.length) break;
  }
  if (!phrase.length) return undefined;
  // Adjacent words make a phrase only when a function says them together ("domain controller").
  while (phrase.length > 1 && !fleet.functions.some((f) => wordIn(f, phrase.join(' ')))) phrase = phrase.slice(0, 1);
  return phrase.join(' ');
}

/** Every filter the question names: place, status, environment, function, owner, operating system. */
export function fleetFilters(query: string, fleet: FleetVocabulary): FleetFilters {
  const q = query.toLowerCase();
  const location =
    fleet.locations
      .filter((l) => wordIn(q, l))
      .sort((a, b) => a.length - b.length)[0]
      ?.split(/\s+/)[0] ??
    fleet.locations.map((l) => l.split(/\s+/)[0]).find((l) => l.length > 2 && wordIn(q, l)) ??
    locationOf(query);
  const statuses = [
    ...new Set(
      q
        .split(/\W+/)
        .map((w) => STATUS_WORDS[w])
        .filter(Boolean),
    ),
  ];
  const owner = OWNER_WORDS.test(q) ? fleet.owners.find((o) => wordIn(q, o)) : undefined;
  const os = fleet.systems
    .flatMap((s) => s.toLowerCase().match(/\p{L}{4,}/gu) ?? [])
    .find((w) => !/^(server|windows)$/.test(w) && wordIn(q, w));
  const filters: FleetFilters = {
    location,
    statuses: statuses.length ? statuses : undefined,
    environment: ENVIRONMENTS.find((e) => q.includes(e)),
    function: functionOf(q, fleet),
    owner,
    os,
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as FleetFilters;
}

/**
 * Decides what to look up. `fleet` lets a question name a server, a place, a function or an owner; `context` is
 * the servers the conversation was last about (follow-ups: "it", "those").
 */
export function detectIntent(
  query: string,
  serverNames: string[] = [],
  fleet: FleetVocabulary = { ...EMPTY_FLEET, names: serverNames },
  context: string[] = [],
): Intent {
  const q = query.toLowerCase();
  if (/^\s*(hi|hello|hey|help|what can you do|who are you)\b/.test(q) && q.length < 40) return { kind: 'help' };
  if (offTopic(query)) return { kind: 'offTopic' };

  const named = serverNames.filter((n) => n.length > 2 && wordIn(q, n)).sort((a, b) => b.length - a.length)[0];
  if (named) return { kind: 'server', name: named };
  const unknownServer = SERVER_LIKE.exec(query)?.[0];
  if (unknownServer && !/^(windows|ubuntu|kb|end|ms|rfc|iso)-/i.test(unknownServer))
    return { kind: 'server', name: unknownServer };

  const docsTerms = () => keywords(query).filter((w) => !/^(recent|latest|new|newest|browse|how|do|to)$/i.test(w));
  const asksDocs = has(
    q,
    /\b(docs?|documentation|documents?|articles?|guides?|knowledge|kb|runbooks?|procedures?|sops?|how (do|can|should|would) (i|we|you)|how to)\b/,
  );
  const reference = context.length ? refersTo(query) : undefined;
  if (reference === 'one') {
    const terms = docsTerms();
    if (asksDocs && terms.length) return { kind: 'docs', terms: terms.join(' ') };
    return { kind: 'server', name: context[0] };
  }
  if (reference === 'many')
    return { kind: 'fleet', filters: fleetFilters(query, fleet), within: context, yesNo: /^\s*(are|is)\b/.test(q) };

  if (has(q, /\b(contacts?|support team|on[- ]?call|team members?|escalat\w*|who (is|are|should|do|can|owns))\b/)) {
    const text = keywords(query).filter((w) => !/^(support|team|contacts?|members?|who|call|oncall)$/i.test(w))[0];
    return { kind: 'contacts', text };
  }
  if (has(q, /\b(logs?|audit|events?|activity|activities|history of changes|recent changes)\b/))
    return { kind: 'logs' };
  if (has(q, ISSUE_WORDS)) {
    const rest = keywords(query).filter((w) => !ISSUE_WORDS.test(w.toLowerCase()) && !IGNORED_WITH_ISSUES.test(w));
    if (!rest.length) return { kind: 'issues' };
    if (!asksDocs && !SERVER_WORDS.test(q)) return { kind: 'unknown', terms: keywords(query).join(' ') };
  }
  if (asksDocs) return { kind: 'docs', terms: docsTerms().join(' ') };
  if (has(q, /\b(network|networks|topology|zones?|subnets?|vlans?|domains?|dmz)\b/) && !/domain controller/.test(q))
    return { kind: 'topology' };
  if (has(q, /\b(group(ed)?|by|per) (by )?locations?\b|\blocations\b|\bsites\b/)) return { kind: 'byLocation' };

  const filters = fleetFilters(query, fleet);
  const aboutServers = SERVER_WORDS.test(q) || /^\s*(list|show|which|where are|what are)\b/.test(q);
  const { location, statuses, environment, owner } = filters;
  const onlyStatus = statuses && Object.keys(filters).length === 1;
  if (
    location ||
    environment ||
    owner ||
    (statuses && !onlyStatus) ||
    ((filters.function || filters.os) && aboutServers)
  )
    return { kind: 'fleet', filters };
  if (has(q, /\bips?\b|ip address|addresses/)) return { kind: 'ips' };
  if (has(q.replace(/active directory/g, ''), /\b(status|health|healthy|active|running|up)\b/) || onlyStatus) {
    return { kind: 'status', statuses: statuses ?? [], activeOnly: /\b(active|running)\b/.test(q) };
  }
  if (aboutServers) {
    const term = keywords(query).filter(
      (w) =>
        !ENVIRONMENTS.includes(w.toLowerCase()) && !/^(inventory|infrastructure|overview|environment|fleet)$/i.test(w),
    )[0];
    return { kind: 'servers', term };
  }
  return { kind: 'unknown', terms: keywords(query).join(' ') };
}

/** Suggested actions (from the spec's list) that fit what was just answered. */
export function suggestionsFor(intent: Intent['kind'], posRelated = false): string[] {
  if (posRelated) return ['View POS documentation', 'Check server status', 'Show network topology'];
  switch (intent) {
    case 'servers':
    case 'fleet':
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
