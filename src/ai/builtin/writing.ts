import {
  categories,
  type EnhancedContent,
  type EnhanceContentInput,
  type EnhanceFieldInput,
  type KbPreview,
} from '../schemas';
import { commandsIn, compose, detectKind } from './compose';
import { asCommand, structure, toBlocks } from './structure';

export { detectKind };

/** Built-in writing tools: real text processing, no model. */

/** Vocabulary per spec category (word-boundary, case-insensitive). */
const VOCABULARY: Record<(typeof categories)[number], string[]> = {
  Azure: [
    'azure',
    'entra',
    'aad',
    'arm template',
    'resource group',
    'subscription',
    'az cli',
    'blob storage',
    'key vault',
  ],
  O365: ['office 365', 'o365', 'microsoft 365', 'm365', 'sharepoint', 'onedrive', 'office apps', 'licen[cs]e'],
  vMware: ['vmware', 'vsphere', 'esxi', 'vcenter', 'vmotion', 'datastore', 'vmkfstools', 'esxcli', 'snapshot'],
  'Windows Server': [
    'windows server',
    'iis',
    'active directory',
    'group policy',
    'gpo',
    'domain controller',
    'rdp',
    'remote desktop',
    'gpupdate',
    'dcdiag',
    'repadmin',
    'services\\.msc',
  ],
  Teams: ['teams', 'teams meeting', 'teams channel', 'teams room'],
  'Exchange SE': [
    'exchange server',
    'exchange se',
    'mailbox database',
    'owa',
    'ecp',
    'exchange management shell',
    'transport service',
    'dag',
  ],
  'Exchange Online': [
    'exchange online',
    'exo',
    'mail flow',
    'connect-exchangeonline',
    'shared mailbox',
    'transport rule',
  ],
  'Windows 11': ['windows 11', 'win11', 'laptop', 'desktop', 'workstation', 'start menu'],
  ADFS: ['adfs', 'federation', 'relying party', 'claims rule', 'token-signing'],
  Patching: [
    'patch',
    'patches',
    'patching',
    'wsus',
    'windows update',
    'hotfix',
    'kb\\d{6,7}',
    'cumulative update',
    'maintenance window',
  ],
  'Enterprise Vault': ['enterprise vault', 'vault store', 'archiving', 'archive', 'ev server'],
  POS: [
    'pos',
    'point of sale',
    'till',
    'tills',
    'eftpos',
    'pin ?pad',
    'receipt printer',
    'cash drawer',
    'store',
    'register',
  ],
  'Server Hardware': [
    'hardware',
    'raid',
    'disk',
    'drive',
    'ilo',
    'idrac',
    'xclarity',
    'imm',
    'lenovo',
    'sr650',
    'firmware',
    'psu',
    'power supply',
    'bmc',
    'dimm',
    'memory module',
  ],
  Citrix: ['citrix', 'xenapp', 'xendesktop', 'vda', 'storefront', 'netscaler', 'workspace app', 'delivery group'],
  Ivanti: ['ivanti', 'landesk', 'heat', 'service desk'],
  SCCM: [
    'sccm',
    'configmgr',
    'mecm',
    'configuration manager',
    'task sequence',
    'distribution point',
    'software center',
  ],
  Intune: ['intune', 'autopilot', 'endpoint manager', 'mdm', 'compliance policy', 'company portal'],
  DNS: ['dns', 'nslookup', 'dig', 'a record', 'cname', 'ptr', 'resolver', 'forwarder', 'dns zone', 'ttl'],
};

const count = (text: string, term: string) => (text.match(new RegExp(`\\b${term}\\b`, 'gi')) ?? []).length;

/** The spec category whose vocabulary the text uses most (ties: earlier in the list); "General" when none. */
export function categorise(text: string): string {
  let best = { category: 'General', score: 0 };
  for (const category of categories) {
    const score = VOCABULARY[category].reduce((n, term) => n + count(text, term) * (term.includes(' ') ? 2 : 1), 0);
    if (score > best.score) best = { category, score };
  }
  return best.category;
}

/** Technologies worth a tag that no category's vocabulary lists. */
const TECHNOLOGIES =
  /\b(nginx|apache|tomcat|postgresql|mysql|sql server|oracle|linux|ubuntu|red hat|windows|powershell|print spooler|spooler|certificate|ssl|tls|vpn|firewall|backup|docker|kubernetes|ldap|kerberos|smtp|iis)\b/g;

/** Commands that say which technology a text is about. */
const HINTS: [RegExp, string][] = [
  [/\b(apt|apt-get|yum|dnf|systemctl|journalctl|df -h|du -sh)\b/, 'linux'],
  [/\b\w+-AD\w+\b|\blocked out\b|\blockouts?\b/i, 'active directory'],
  [/\bW3SVC\b|\biisreset\b/i, 'iis'],
  [/^(?:PS [^>]*>\s*)?(?:Get|Set|New|Restart|Start|Stop|Invoke|Install|Enable|Test)-[A-Z]\w+/m, 'powershell'],
];

/** Tags from a vocabulary only: the category, its terms found, technologies named (max 6); never loose words. */
export function extractTags(text: string, max = 6): string[] {
  const lower = text
    .toLowerCase()
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/data:image\/[^)\s]+/g, ' ');
  const tags: string[] = [];
  for (const [category, terms] of Object.entries(VOCABULARY)) {
    for (const term of terms)
      if (!/[\\?[]/.test(term) && count(lower, term) > 0 && !tags.includes(term)) tags.push(term);
    if (count(lower, category.toLowerCase()) > 0 && !tags.includes(category.toLowerCase()))
      tags.unshift(category.toLowerCase());
  }
  for (const tech of lower.match(TECHNOLOGIES) ?? []) if (!tags.includes(tech)) tags.push(tech);
  for (const [hint, tech] of HINTS) if (hint.test(text) && !tags.includes(tech)) tags.push(tech);
  return [...new Set(tags)].slice(0, max);
}

const ACRONYMS =
  /^(dns|dhcp|iis|ad|adfs|pos|vm|vpn|sql|ssl|tls|api|url|ip|os|sccm|wsus|rdp|gpo|owa|dag|kb|o365|m365|ha|dr|san|nas|raid|ilo|bmc)$/i;
const SMALL = /^(a|an|and|as|at|but|by|for|in|of|on|or|the|to|via|with)$/i;

/** Title Case that keeps acronyms upper-case and small words lower-case. */
export function titleCase(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:;,]+$/, '')
    .split(' ')
    .map((w, i) =>
      ACRONYMS.test(w)
        ? w.toUpperCase()
        : i > 0 && SMALL.test(w)
          ? w.toLowerCase()
          : /[A-Z]/.test(w.slice(1))
            ? w
            : w[0].toUpperCase() + w.slice(1),
    )
    .join(' ');
}

/** A title from the text: its first short line (not a step or command), else its first words. */
export function deriveTitle(text: string, fallback = 'Untitled Knowledge Base Article'): string {
  for (const raw of text.replace(/\r/g, '').split('\n')) {
    const line = raw
      .replace(/^#+\s*|^((title|subject|re|fw|fwd)\s*:\s*)+/i, '')
      .replace(/^\s*(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*)?(?:<?[\w.-]{2,20}>?\s*:\s+)(?=\S)/, '')
      .replace(/^(ticket|inc|incident|req|request|ritm|chg|change|case|task)?\s*#?\s*[A-Z]{0,5}\d{3,}\s*[-:–|]\s*/i, '')
      .trim();
    if (!line || asCommand(line) || commandsIn(line).length || /^(\d+[.)]|[-*•]|!\[|<|```|\$ )/.test(line)) continue;
    if (/^(hi|hello|hey|thanks|cheers|regards|from|to|cc|date|sent|priority|reported by|assigned to)\b/i.test(line))
      continue;
    const first = line.split(/(?<=[.!?])\s/)[0].replace(/[.!?]+$/, '');
    if (first.split(/\s+/).length < 2) continue;
    if (first.length <= 90) return titleCase(first);
    return titleCase(first.split(/\s+/).slice(0, 10).join(' '));
  }
  return fallback;
}

/** One or two plain sentences summarising the text (no markdown), at most ~200 characters. */
export function summarise(text: string, max = 200): string {
  const prose = toBlocks(text)
    .filter((b): b is { kind: 'text'; text: string } => b.kind === 'text')
    .map((b) => b.text)
    .join(' ')
    .replace(/[*_`#>[\]]/g, '')
    .trim();
  const source =
    prose ||
    toBlocks(text)
      .flatMap((b) => ('text' in b && b.kind !== 'command' && b.kind !== 'fence' ? [b.text] : []))
      .join('. ');
  let out = '';
  for (const s of source.split(/(?<=[.!?])\s+/)) {
    if ((out + ' ' + s).trim().length > max) break;
    out = `${out} ${s}`.trim();
  }
  out ||= source.slice(0, max - 1).replace(/\s+\S*$/, '') + (source.length > max ? '…' : '');
  out = out.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
  return out && !/[.!?…]$/.test(out) ? `${out}.` : out;
}

/** Drops the title line from the body when it repeats the title. */
function withoutTitleLine(text: string, title: string): string {
  const lines = text.replace(/\r/g, '').split('\n');
  const first = lines.findIndex((l) => l.trim());
  if (first >= 0 && deriveTitle(lines[first], '') === title) lines.splice(first, 1);
  return lines.join('\n');
}

/** The summary of structured markdown: its prose sentences, headings and code left out. */
function summaryOf(markdown: string): string {
  const lines = markdown
    .replace(/^\s*(```|~~~)[\s\S]*?^\s*\1\s*$/gm, '')
    .split('\n')
    .filter((l) => l.trim() && !/^\s*#/.test(l));
  // Paragraphs say what the item is about; list items (symptoms, steps) only when there is no paragraph.
  const paragraphs = lines.filter((l) => !/^\s*(\d+\.|[-*•])\s+/.test(l));
  const chosen = paragraphs.length ? paragraphs : lines;
  const sentences = chosen
    .map((l) => l.replace(/^\s*(\d+\.|[-*•])\s+/, '').trim())
    .map((l) => (/[.!?:]$/.test(l) ? l : `${l}.`));
  return summarise(sentences.join('\n\n'));
}

/** Already written as markdown (headings or code fences): tidied, not rebuilt. */
const isMarkdown = (text: string) => /^(#{1,6}\s|```|~~~)/m.test(text);

/** The structured body: markdown tidied; anything else composed into sections. */
function structured(text: string): string {
  // Markdown, or text with its own section lines ("Fix:", "Symptoms:"): tidied in its own order.
  if (isMarkdown(text) || toBlocks(text).some((b) => b.kind === 'heading')) return structure(text);
  return compose(text).content || structure(text);
}

/** The technology a title can name when the text has no prose line (shell history). */
function fallbackTitle(text: string): string {
  const tag = extractTags(text, 1)[0];
  const kind = detectKind(text);
  const what = kind === 'article' ? 'notes' : kind === 'how-to' ? 'procedure' : kind;
  return tag ? titleCase(`${tag} ${what}`) : titleCase(`Operations ${what}`);
}

/** Messy text → the auto-created preview (title, category, tags, excerpt, structured content). */
export function previewKb(content: string): KbPreview {
  const title = deriveTitle(content, fallbackTitle(content));
  const rest = withoutTitleLine(content, title);
  const body = structured(rest);
  const category = categorise(content);
  return {
    title,
    category,
    tags: extractTags(`${category === 'General' ? '' : category}\n${content}`),
    excerpt: summaryOf(body) || title,
    content: body || content.trim(),
  };
}

/** The editor's "Enhance with AI": structured content (its H1 kept), a suggested title, tags and a summary. */
export function enhanceContent(input: EnhanceContentInput): EnhancedContent {
  const title = input.title?.trim() ? titleCase(input.title) : deriveTitle(input.content, fallbackTitle(input.content));
  const h1 = /^\s*#\s+(.+)\n/.exec(input.content);
  const body = h1 ? input.content.slice(h1[0].length) : input.content;
  const improved = structured(body);
  return {
    improvedContent: h1 ? `# ${h1[1].trim()}\n\n${improved}` : improved,
    suggestedTitle: title,
    extractedTags: extractTags(`${input.category ?? ''}\n${input.title ?? ''}\n${input.content}`),
    summary: summaryOf(improved) || title,
  };
}

/** One field made tidier: title in Title Case; excerpt and purpose as clean sentences. */
export function enhanceField(input: EnhanceFieldInput): string {
  const text = input.content.replace(/\s+/g, ' ').trim();
  if (input.fieldType === 'title') return titleCase(text);
  const sentences = text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.replace(/^\w/, (c) => c.toUpperCase()))
    .join(' ');
  const limited = input.fieldType === 'excerpt' && sentences.length > 300 ? summarise(sentences, 300) : sentences;
  return /[.!?…]$/.test(limited) ? limited : `${limited}.`;
}

/** Is the tag one the vocabulary gives (a category, one of its terms, a technology)? */
export function isVocabularyTag(tag: string): boolean {
  const t = tag.toLowerCase();
  if (categories.some((c) => c.toLowerCase() === t)) return true;
  if (Object.values(VOCABULARY).some((terms) => terms.some((term) => new RegExp(`^${term}$`, 'i').test(t))))
    return true;
  return new RegExp(`^(?:${TECHNOLOGIES.source.replace(/\\b/g, '')})$`, 'i').test(t);
}
