/**
 * Reading a question as ops staff type it: typos corrected against the words Ops Hub knows (the fleet's own
 * names, places, functions, owners, and the operations vocabulary), abbreviations and synonyms spelled out.
 */

import damerauLevenshtein from 'damerau-levenshtein';

/** Words of the questions the assistant answers (what typos are corrected to). */
const OPS_WORDS = (
  'server servers host hosts offline online warning warnings maintenance status health healthy unhealthy ' +
  'documentation document documents article articles runbook runbooks procedure guide knowledge ' +
  'certificate certificates renew renewal restart reboot terminal terminals password reset unlock account ' +
  'database databases datastore expand storage backup restore patch patching update updates install deploy ' +
  'deployment mailbox exchange citrix vmware esxi cluster network firewall domain controller controllers ' +
  'which where what owns owner owned contact contacts support escalate issues problems outage outages ' +
  'production staging development location locations address addresses troubleshoot troubleshooting ' +
  'configure configuration replace failed disk memory printer laptop application applications service services ' +
  'archiving license licence assign enrolment shared windows linux ubuntu'
).split(' ');

/** Abbreviations and synonyms → the words the data uses. */
const SYNONYMS: Record<string, string> = {
  reboot: 'restart',
  rebooting: 'restarting',
  cert: 'certificate',
  certs: 'certificates',
  pwd: 'password',
  passwd: 'password',
  pw: 'password',
  ad: 'active directory',
  ev: 'enterprise vault',
  license: 'licence',
  licenses: 'licences',
  dev: 'development',
  prod: 'production',
  stg: 'staging',
  unhealthy: 'offline warning',
  hypervisor: 'esxi',
  hypervisors: 'esxi',
  db: 'database',
  dbs: 'databases',
  boxes: 'servers',
  box: 'server',
  vms: 'servers',
  website: 'web',
  dc: 'domain controller',
  dcs: 'domain controllers',
};

/** Damerau–Levenshtein distance (one transposition counts once); 3 at once for lengths 3 or more apart. */
export function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  return damerauLevenshtein(a, b).steps;
}

/** The known words: the operations vocabulary and every word of the fleet's names, places, functions, owners. */
export function vocabulary(fleetTexts: string[]): Set<string> {
  const words = new Set(OPS_WORDS);
  for (const t of fleetTexts) for (const w of t.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? []) words.add(w);
  return words;
}

/** The known word a typo most likely meant (one edit, two for long words); the word itself when none. */
function corrected(word: string, known: Set<string>): string {
  const lower = word.toLowerCase();
  if (lower.length < 4 || known.has(lower) || !/^\p{L}+$/u.test(lower)) return word;
  const allowed = lower.length >= 8 ? 2 : 1;
  let best: { w: string; d: number } | undefined;
  for (const k of known) {
    if (k.length < 4) continue;
    const d = distance(lower, k);
    if (d <= allowed && (!best || d < best.d)) best = { w: k, d };
  }
  return best?.w ?? word;
}

/** The question with typos corrected and synonyms spelled out (server-like names and the rest left as typed). */
export function normalise(query: string, known: Set<string>, common: Set<string>): string {
  return query.replace(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu, (word) => {
    if (/[-\d]/.test(word) || common.has(word.toLowerCase())) return word;
    const synonym = SYNONYMS[word.toLowerCase()];
    if (synonym) return synonym;
    return corrected(word, known);
  });
}

/**
 * Subjects Ops Hub holds no data on (weather, sport, travel, food, money, trivia, jokes, translations): such a
 * question is declined, whatever place or product name it also mentions.
 */
const OFF_TOPIC =
  /\b(weather|forecast|temperature|rain(ing)?|jokes?|poems?|poetry|songs?|lyrics|football|soccer|cricket|rugby|tennis|basketball|sports?|capital of|president|prime minister|population|flights?|airfare|hotels?|restaurants?|recipes?|cook(ing)?|movies?|films?|exchange rates?|currency|dollars?|euros?|stock price|share price|bitcoin|crypto|translate|translation|horoscope|what time is it|time is it in|news)\b/i;

export const offTopic = (query: string) => OFF_TOPIC.test(query);

/** The plain refusal for a question outside Ops Hub's data. */
export const DECLINE =
  "I can only answer from Ops Hub's own data — the server inventory and its health checks, the knowledge base and documents, the team directory and the audit log — so I can't answer that. Try asking about servers (by location, status, function or owner), documentation on a topic, recent issues or support contacts.";
