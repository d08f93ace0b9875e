import {
  categories,
  type EnhancedContent,
  type EnhanceContentInput,
  type EnhanceFieldInput,
  type KbPreview,
} from '../schemas';
import { asCommand, structure, toBlocks } from './structure';

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

const STOP = new Set(
  'about above after again against also because been before being below between both could does doing down during each few from further have having here into just more most much must need needs once only other over same should some such than that their them then there these they this those through under until very were what when where which while will with would your yours you the and for are but not all any can was our out use using used make sure check run open click select enter type go next first finally step steps new now get set may one two its via'.split(
    ' ',
  ),
);

/** Keywords as tags: spec vocabulary terms found, then the most frequent significant words (max 6). */
export function extractTags(text: string, max = 6): string[] {
  const lower = text
    .toLowerCase()
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/data:image\/[^)\s]+/g, ' ');
  const tags: string[] = [];
  for (const [category, terms] of Object.entries(VOCABULARY)) {
    for (const term of terms)
      if (!/[\\?]/.test(term) && count(lower, term) > 0 && !tags.includes(term)) tags.push(term);
    if (count(lower, category.toLowerCase()) > 0 && !tags.includes(category.toLowerCase()))
      tags.unshift(category.toLowerCase());
  }
  const freq = new Map<string, number>();
  for (const w of lower.match(/[a-z][a-z0-9-]{3,}/g) ?? []) if (!STOP.has(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const frequent = [...freq.entries()]
    .filter(([, n]) => n > 1)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([w]) => w);
  for (const w of frequent) if (!tags.some((t) => t.includes(w) || w.includes(t))) tags.push(w);
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
    const line = raw.replace(/^#+\s*|^(title|subject|re|fw)\s*:\s*/i, '').trim();
    if (!line || asCommand(line) || /^(\d+[.)]|[-*•]|!\[|<|```)/.test(line)) continue;
    const first = line.split(/(?<=[.!?])\s/)[0];
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
  if (first >= 0 && titleCase(lines[first].replace(/^#+\s*|^(title|subject)\s*:\s*/i, '')) === title)
    lines.splice(first, 1);
  return lines.join('\n');
}

/** Messy text → the auto-created preview (title, category, tags, excerpt, structured content). */
export function previewKb(content: string): KbPreview {
  const title = deriveTitle(content);
  const body = structure(withoutTitleLine(content, title));
  return {
    title,
    category: categorise(content),
    tags: extractTags(content),
    excerpt: summarise(withoutTitleLine(content, title)) || `How to ${title.toLowerCase()}.`,
    content: body || content.trim(),
  };
}

/** The editor's "Enhance with AI": structured content, a suggested title, tags and a summary. */
export function enhanceContent(input: EnhanceContentInput): EnhancedContent {
  const title = input.title?.trim() ? titleCase(input.title) : deriveTitle(input.content);
  return {
    improvedContent: structure(input.content),
    suggestedTitle: title,
    extractedTags: extractTags(`${input.title ?? ''}\n${input.content}`),
    summary: summarise(input.content),
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
