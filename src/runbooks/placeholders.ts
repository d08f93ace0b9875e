import { randomBytes } from 'node:crypto';
import { lastCheckText, UNKNOWN_VALUE, uptimeText, usageText, type Server } from '../servers/shared';
import { formatDateTime } from '../ui/shared';

/**
 * `{{server:NAME.field}}` in an item's content, filled from the live server record (issue 23). The placeholders
 * become plain tokens before the markdown is parsed and the values are put in (HTML-escaped) before the HTML is
 * sanitised, so a value shows as text wherever it stands — prose, headings, tables, code blocks — and can add no
 * markup, while a value put into a link still goes through the sanitiser's URL rules.
 */

/** `{{server:web1.ipAddress}}`, spaces allowed inside the braces; the name is everything before the last dot. */
const PLACEHOLDER = /\{\{\s*server\s*:([^{}\n]*)\}\}/gi;

/** The fields a placeholder may name: every scalar of the Server JSON but its notes, ids and row times. */
export const PLACEHOLDER_FIELDS = [
  'name',
  'hostname',
  'ipAddress',
  'domain',
  'network',
  'environment',
  'operatingSystem',
  'serverType',
  'hardwareModel',
  'serverLocation',
  'primaryFunction',
  'secondaryFunction',
  'tertiaryFunction',
  'teamOwner',
  'keyContacts',
  'managedBy',
  'status',
  'cpuUsage',
  'memoryUsage',
  'diskUsage',
  'uptime',
  'lastHealthCheck',
  'monitorPort',
  'description',
] as const;
export type PlaceholderField = (typeof PLACEHOLDER_FIELDS)[number];

/** What a placeholder reads of a server. */
export type PlaceholderServer = Pick<Server, PlaceholderField | 'metricsUpdatedAt'>;

/** Field names as written, any case ("ipaddress" is ipAddress). */
const FIELD_BY_LOWER = new Map<string, PlaceholderField>(PLACEHOLDER_FIELDS.map((f) => [f.toLowerCase(), f]));

/** What the share page shows for every placeholder: a share link's reader sees no server facts. */
export const HIDDEN_MARKER = '⟦server details hidden⟧';

interface Placeholder {
  name: string;
  /** The field it names, or the text written when no field has that name. */
  field: PlaceholderField | { unknown: string };
}

function parse(inner: string): Placeholder {
  const dot = inner.lastIndexOf('.');
  const name = (dot < 0 ? inner : inner.slice(0, dot)).trim();
  const written = dot < 0 ? '' : inner.slice(dot + 1).trim();
  return { name, field: FIELD_BY_LOWER.get(written.toLowerCase()) ?? { unknown: written } };
}

/**
 * Placeholders filled per content: far more than a runbook holds; those after it stay as written, so a text made of
 * placeholders costs a render no more than a plain one.
 */
export const MAX_PLACEHOLDERS = 1000;

/** The first MAX_PLACEHOLDERS placeholders of the content. */
function placeholdersIn(content: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const m of content.matchAll(PLACEHOLDER)) {
    if (found.length === MAX_PLACEHOLDERS) break;
    found.push(parse(m[1]));
  }
  return found;
}

/** A server name is at most this long (servers.name); a longer one names no server. */
const NAME_MAX = 100;

/** The server names (lower case, once each, at most MAX_PLACEHOLDERS) the content's placeholders with a known field ask for. */
export function placeholderNames(content: string): string[] {
  if (!content.includes('{{')) return [];
  const names = placeholdersIn(content)
    .filter((p) => typeof p.field === 'string' && p.name && p.name.length <= NAME_MAX)
    .map((p) => p.name.toLowerCase());
  return [...new Set(names)];
}

const orDash = (v: string | number | null) => (v === null || v === '' ? UNKNOWN_VALUE : String(v));

/** A field's value as a reader sees it: usage as "42%", uptime as "3d 4h", times in the reader's timezone. */
export function fieldText(s: PlaceholderServer, field: PlaceholderField, timeZone: string): string {
  switch (field) {
    case 'cpuUsage':
    case 'memoryUsage':
    case 'diskUsage':
      return usageText(s, s[field]);
    case 'uptime':
      return uptimeText(s);
    case 'lastHealthCheck':
      return lastCheckText(s, (iso) => formatDateTime(iso, timeZone));
    default:
      return orDash(s[field]);
  }
}

/** Servers by lower-case name, every server of that name in any case (names are unique only as written). */
export type ServersByName = Map<string, PlaceholderServer[]>;

function liveValue(p: Placeholder, servers: ServersByName, timeZone: string): string {
  if (typeof p.field !== 'string') return `⟦unknown field "${p.field.unknown}"⟧`;
  const named = servers.get(p.name.toLowerCase()) ?? [];
  const server = named.find((s) => s.name === p.name) ?? named[0];
  return server ? fieldText(server, p.field, timeZone) : `⟦unknown server "${p.name}"⟧`;
}

/** Content ready to render: placeholders turned to tokens, and what puts their values into the parsed HTML. */
export interface FilledContent {
  markdown: string;
  /** The text each placeholder stands for, in order (the render cache's key includes them). */
  values: string[];
  /** Runs on the parsed HTML before it is sanitised: each token becomes its value, HTML-escaped. */
  fill?: (html: string) => string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Letters and digits only, so markdown leaves them alone wherever they stand; a fresh random part per render, so
 * content cannot write one.
 */
function tokenizer() {
  const prefix = `srvph${randomBytes(6).toString('hex')}n`;
  return { token: (i: number) => `${prefix}${i}e`, pattern: new RegExp(`${prefix}(\\d+)e`, 'g') };
}

/** Replaces every placeholder by a value: `valueAt(placeholder)` decides each (a live value, a marker). */
function fillWith(content: string, valueAt: (p: Placeholder) => string): FilledContent {
  if (!content.includes('{{')) return { markdown: content, values: [] };
  const values: string[] = [];
  const { token, pattern } = tokenizer();
  const markdown = content.replace(PLACEHOLDER, (all, inner: string) => {
    if (values.length === MAX_PLACEHOLDERS) return all;
    values.push(valueAt(parse(inner)));
    return token(values.length - 1);
  });
  if (!values.length) return { markdown: content, values };
  const escaped = values.map(escapeHtml);
  return { markdown, values, fill: (html) => html.replace(pattern, (_t, i: string) => escaped[Number(i)] ?? '') };
}

/** The content with each placeholder's live value (servers: the named ones, as serversNamed found them). */
export function fillPlaceholders(content: string, servers: ServersByName, timeZone = 'UTC'): FilledContent {
  return fillWith(content, (p) => liveValue(p, servers, timeZone));
}

/** The content for a share link's anonymous reader: every placeholder shows HIDDEN_MARKER. */
export function hidePlaceholders(content: string): FilledContent {
  return fillWith(content, () => HIDDEN_MARKER);
}
