import type { Actor } from '../../auth/policy';
import type { Db } from '../../db/client';
import type { ToolUse } from '../engine';
import { toolSources } from '../sources';
import * as tools from '../tools';
import type { ServerRow } from '../tools';
import type { FleetFilters, Intent } from './intents';
import { esc, link, plural, table, when } from './md';
import { DECLINE } from './words';

/** Runs the tools an intent needs and writes the answer as markdown from the rows found. */

export interface Drafted {
  text: string;
  tools: ToolUse[];
}

/** Looks up and writes one answer from what `reader` (the asker) may read; times in `timeZone` (theirs). */
type Run = (db: Db, used: ToolUse[], timeZone: string, reader: Actor) => Promise<string>;

const MAX_ROWS = 50;

async function use<T extends unknown[] | object | null>(
  used: ToolUse[],
  name: string,
  args: Record<string, unknown>,
  p: Promise<T>,
): Promise<T> {
  const result = await p;
  const results = Array.isArray(result) ? result.length : result ? 1 : 0;
  used.push({ name, args, results, sources: toolSources(name, result) });
  return result;
}

const fn = (s: ServerRow) => [s.primaryFunction, s.secondaryFunction, s.tertiaryFunction].filter(Boolean).join(', ');

function serverTable(rows: ServerRow[]): string {
  const shown = rows.slice(0, MAX_ROWS);
  const t = table(
    ['Server', 'IP Address', 'Status', 'Environment', 'Location', 'Function', 'Owner'],
    shown.map((s) => [
      link(s.name, s.link),
      esc(s.ipAddress),
      esc(s.status),
      esc(s.environment),
      esc(s.serverLocation),
      esc(fn(s)),
      esc(s.teamOwner),
    ]),
  );
  return rows.length > MAX_ROWS
    ? `${t}\n\nShowing the first ${MAX_ROWS} of ${rows.length}; see [Infrastructure](/infrastructure) for all.`
    : t;
}

function groupBy<T>(rows: T[], key: (r: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups.entries()].sort(([a], [b]) =>
    a.startsWith('Unspecified') ? 1 : b.startsWith('Unspecified') ? -1 : a.localeCompare(b),
  );
}

const NO_SERVERS = 'There are no servers in the inventory yet. Add them on the [Infrastructure](/infrastructure) page.';

const runners: { [K in Intent['kind']]: (intent: Extract<Intent, { kind: K }>) => Run } = {
  help: () => async () =>
    "I answer from Ops Hub's own data: the server inventory and its health checks, the knowledge base and documents, the team directory and the audit log. Try asking which servers are in a location, the status of active servers, recent issues, or for documentation on a topic.",

  server:
    ({ name }) =>
    async (db, used, timeZone, reader) => {
      const s = await use(used, 'get_server', { name }, tools.getServer(db, reader, name));
      if (!s) return `I couldn't find a server named "${esc(name)}".`;
      const facts = [
        ['Status', s.status],
        ['Environment', s.environment],
        ['IP address', s.ipAddress],
        ['Hostname', s.hostname],
        ['Location', s.serverLocation],
        ['Network zone', s.network],
        ['Domain', s.domain],
        ['Operating system', s.operatingSystem],
        ['Function', fn(s)],
        ['Team owner', s.teamOwner],
        ['Key contacts', s.keyContacts],
        ['CPU / memory', `${Math.round(s.cpuUsage)}% / ${Math.round(s.memoryUsage)}%`],
        ['Last health check', when(s.lastHealthCheck, timeZone)],
      ];
      const checks = s.healthChecks.length
        ? `\n\n**Last health checks**\n\n${table(
            ['Checked', 'Status', 'Latency', 'Error'],
            s.healthChecks.map((h) => [
              when(h.checkedAt, timeZone),
              esc(h.status),
              h.latencyMs === null ? '—' : `${h.latencyMs} ms`,
              esc(h.error),
            ]),
          )}`
        : '\n\nNo health checks have been recorded for it yet.';
      const docs = s.documents.length
        ? `\n\n**Linked documents**\n\n${s.documents.map((d) => `- ${link(d.title, d.link)}`).join('\n')}`
        : '';
      return `**${link(s.name, s.link)}**\n\n${facts.map(([k, v]) => `- **${k}:** ${esc(v)}`).join('\n')}${checks}${docs}`;
    },

  contacts:
    ({ text }) =>
    async (db, used) => {
      let rows = await use(used, 'team_contacts', { text }, tools.teamContacts(db, text));
      if (!rows.length && text) rows = await use(used, 'team_contacts', {}, tools.teamContacts(db));
      if (!rows.length) return 'No team contacts are recorded yet. Add them on the [Team](/team) page.';
      return `Support team contacts (${rows.length}):\n\n${table(
        ['Name', 'Role', 'Department', 'Email', 'Status'],
        rows.map((m) => [
          esc(m.name),
          esc(m.role),
          esc(m.department),
          /^[^\s@<>()[\]]+@[^\s@<>()[\]]+$/.test(m.email) ? `[${esc(m.email)}](mailto:${m.email})` : esc(m.email),
          esc(m.status),
        ]),
      )}\n\nSee the [Team](/team) page for everyone.`;
    },

  logs: () => async (db, used, timeZone, reader) => {
    if (!tools.mayReadAudit(reader)) return tools.AUDIT_DENIED;
    const rows = await use(used, 'recent_audit_events', { limit: 15 }, tools.recentAuditEvents(db, reader, 15));
    if (!rows.length) return 'No system events have been recorded yet.';
    return `The ${plural(rows.length, 'most recent system event')}:\n\n${table(
      ['When', 'Action', 'Entity', 'By'],
      rows.map((e) => [
        when(e.createdAt, timeZone),
        esc(e.action),
        esc(`${e.entityType}${e.entityId ? ` ${e.entityId}` : ''}`),
        esc(e.actor ?? 'system'),
      ]),
    )}`;
  },

  issues: () => async (db, used, timeZone) => {
    const problems = await use(used, 'recent_health_problems', { limit: 10 }, tools.recentHealthProblems(db, 10));
    const current = await use(
      used,
      'search_servers',
      { status: ['offline', 'warning'] },
      tools.searchServers(db, { status: ['offline', 'warning'] }),
    );
    const parts: string[] = [];
    parts.push(
      current.length
        ? `**${plural(current.length, 'server')} currently offline or in warning:**\n\n${serverTable(current)}`
        : 'No server is currently offline or in warning.',
    );
    parts.push(
      problems.length
        ? `**Recent health-check problems** (newest first):\n\n${table(
            ['Checked', 'Server', 'Status', 'Was', 'Error'],
            problems.map((p) => [
              when(p.checkedAt, timeZone),
              link(p.serverName, p.link),
              esc(p.status),
              esc(p.previousStatus),
              esc(p.error),
            ]),
          )}`
        : 'No health check has found a server offline or in warning recently.',
    );
    return parts.join('\n\n');
  },

  docs:
    ({ terms }) =>
    async (db, used, _timeZone, reader) => {
      // All the words first; when nothing has them all, any of them (ranked).
      let hits = terms
        ? await use(used, 'search_documents', { query: terms }, tools.searchDocuments(db, reader, terms, 8))
        : await use(used, 'recent_documents', { limit: 5 }, tools.recentDocuments(db, reader, 5));
      if (!hits.length && terms.includes(' ')) {
        const any = terms.split(/\s+/).join(' or ');
        hits = await use(used, 'search_documents', { query: any }, tools.searchDocuments(db, reader, any, 8));
      }
      if (!hits.length) {
        return terms
          ? `I couldn't find any documentation matching "${esc(terms)}". Try other words, or browse the [Knowledge Base](/knowledge-base).`
          : 'There is no documentation in the knowledge base yet.';
      }
      const head = terms ? `Documentation matching "${esc(terms)}":` : 'The most recently updated documentation:';
      const list = hits.map((d, i) => {
        const meta = [d.category, d.tags.slice(0, 3).join(', ')].filter(Boolean).map(esc).join(' · ');
        const summary = (d.section ? d.snippet : d.excerpt || d.snippet).slice(0, 200);
        const section = d.section?.heading ? ` (section ${link(d.section.heading, d.section.link)})` : '';
        return `${i + 1}. ${link(d.title, d.link)}${section}${meta ? ` — ${meta}` : ''}\n   > ${esc(summary)}`;
      });
      return `${head}\n\n${list.join('\n')}`;
    },

  topology: () => async (db, used) => {
    const rows = await use(used, 'search_servers', {}, tools.searchServers(db, { limit: 500 }));
    if (!rows.length) return NO_SERVERS;
    const zones = groupBy(rows, (s) => s.network || 'Unspecified network zone');
    const sections = zones.map(([zone, list]) => {
      const domains = [...new Set(list.map((s) => s.domain).filter(Boolean))];
      return `### ${esc(zone)} (${plural(list.length, 'server')})\n\nDomains: ${domains.length ? domains.map(esc).join(', ') : '—'}\n\n${table(
        ['Server', 'IP Address', 'Hostname', 'Domain', 'Environment', 'Status'],
        list
          .slice(0, MAX_ROWS)
          .map((s) => [
            link(s.name, s.link),
            esc(s.ipAddress),
            esc(s.hostname),
            esc(s.domain),
            esc(s.environment),
            esc(s.status),
          ]),
      )}`;
    });
    return `Network configuration and topology: ${plural(rows.length, 'server')} in ${plural(zones.length, 'network zone')}.\n\n${sections.join('\n\n')}`;
  },

  byLocation: () => async (db, used) => {
    const rows = await use(used, 'search_servers', {}, tools.searchServers(db, { limit: 500 }));
    if (!rows.length) return NO_SERVERS;
    const groups = groupBy(rows, (s) => s.serverLocation || 'Unspecified location');
    return `Servers grouped by location (${plural(groups.length, 'location')}):\n\n${groups
      .map(
        ([loc, list]) =>
          `### ${esc(loc)} (${list.length})\n\n${list.map((s) => `- ${link(s.name, s.link)} — ${esc(s.ipAddress)} — ${esc(s.status)} — ${esc(s.environment)}`).join('\n')}`,
      )
      .join('\n\n')}`;
  },

  location:
    ({ location }) =>
    async (db, used) => {
      const rows = await use(used, 'search_servers', { location }, tools.searchServers(db, { location }));
      if (!rows.length) return `I found no servers whose location matches "${esc(location)}".`;
      return `Found ${plural(rows.length, 'server')} in **${esc(location)}**:\n\n${serverTable(rows)}`;
    },

  ips: () => async (db, used) => {
    const rows = await use(used, 'search_servers', {}, tools.searchServers(db, { limit: 500 }));
    if (!rows.length) return NO_SERVERS;
    const missing = rows.filter((s) => !s.ipAddress).length;
    return `IP addresses of ${plural(rows.length, 'server')}:\n\n${table(
      ['Server', 'IP Address', 'Hostname', 'Environment'],
      rows.slice(0, 200).map((s) => [link(s.name, s.link), esc(s.ipAddress), esc(s.hostname), esc(s.environment)]),
    )}${missing ? `\n\n${plural(missing, 'server has', 'servers have')} no IP address recorded.` : ''}`;
  },

  status:
    ({ statuses, activeOnly }) =>
    async (db, used, timeZone) => {
      const all = await use(used, 'search_servers', {}, tools.searchServers(db, { limit: 500 }));
      if (!all.length) return NO_SERVERS;
      const counts = groupBy(all, (s) => s.status)
        .map(([st, l]) => `**${esc(st)}**: ${l.length}`)
        .join(', ');
      const wanted = statuses.length ? statuses : activeOnly ? ['online', 'warning'] : [];
      const rows = wanted.length ? all.filter((s) => wanted.includes(s.status)) : all;
      const label = wanted.length
        ? `${activeOnly && !statuses.length ? 'Active servers (online or warning)' : `Servers with status ${wanted.join(' or ')}`}`
        : 'All servers';
      if (!rows.length) return `Status of ${plural(all.length, 'server')}: ${counts}.\n\n${label}: none.`;
      return `Status of ${plural(all.length, 'server')}: ${counts}.\n\n**${label}** (${rows.length}):\n\n${table(
        ['Server', 'Status', 'Environment', 'CPU', 'Memory', 'Last check'],
        rows
          .slice(0, MAX_ROWS)
          .map((s) => [
            link(s.name, s.link),
            esc(s.status),
            esc(s.environment),
            `${Math.round(s.cpuUsage)}%`,
            `${Math.round(s.memoryUsage)}%`,
            when(s.lastHealthCheck, timeZone),
          ]),
      )}`;
    },

  servers:
    ({ environment, term }) =>
    async (db, used, _timeZone, reader) => {
      const args = { environment, function: term };
      const rows = await use(used, 'search_servers', args, tools.searchServers(db, { environment, function: term }));
      const what = [term, environment]
        .filter(Boolean)
        .map((w) => esc(w))
        .join(' ');
      if (!rows.length && term) {
        // "azure vm won't start": no such servers, but maybe a document on it.
        const docs = await runners.docs({ kind: 'docs', terms: term })(db, used, _timeZone, reader);
        if (!docs.startsWith("I couldn't")) return docs;
      }
      if (!rows.length) return what ? `I found no ${what} servers in the inventory.` : NO_SERVERS;
      return `Found ${plural(rows.length, `${what ? `${what} ` : ''}server`)}:\n\n${serverTable(rows)}`;
    },

  offTopic: () => async () => DECLINE,

  fleet:
    ({ filters, within, yesNo }) =>
    async (db, used) => {
      const { statuses, ...rest } = filters;
      const args = { ...rest, status: yesNo ? undefined : statuses, names: within };
      const rows = await use(used, 'search_servers', args, tools.searchServers(db, { ...args, limit: 500 }));
      const what = describe(filters, !!yesNo);
      if (yesNo && statuses?.length) {
        const matching = rows.filter((r) => statuses.includes(r.status)).length;
        return `${matching} of ${plural(rows.length, 'server')} ${matching === 1 ? 'is' : 'are'} ${statuses.join(' or ')}:\n\n${serverTable(rows)}`;
      }
      if (!rows.length) {
        if (Object.keys(filters).length === 1 && filters.location)
          return `I found no servers whose location matches "${esc(filters.location)}".`;
        return `I found no ${within ? 'such servers among those' : 'servers'}${what.text ? ` ${what.text}` : ''}.`;
      }
      return `Found ${plural(rows.length, `${what.adjectives}server`)}${within ? ' among those' : ''}${what.text ? ` ${what.text}` : ''}:\n\n${serverTable(rows)}`;
    },

  unknown:
    ({ terms }) =>
    async (db, used, timeZone, reader) => {
      if (terms) {
        const docs = await runners.docs({ kind: 'docs', terms })(db, used, timeZone, reader);
        if (!docs.startsWith("I couldn't")) return docs;
        const servers = await use(
          used,
          'search_servers',
          { text: terms },
          tools.searchServers(db, { text: terms.split(' ')[0] }),
        );
        if (servers.length) return `Servers matching "${esc(terms)}":\n\n${serverTable(servers)}`;
      }
      return `I don't know: I found nothing in Ops Hub's servers, documentation, team or logs about "${esc(terms || 'that')}". I can answer questions about servers (by location, status, IP or function), documentation, recent issues, system logs and support contacts.`;
    },
};

/** "POS production servers in **Auburn** with status offline, owned by Retail Systems". */
function describe(f: FleetFilters, yesNo: boolean): { adjectives: string; text: string } {
  const adjectives = [f.function, f.os, f.environment]
    .filter(Boolean)
    .map((w) => `${esc(w)} `)
    .join('');
  const text = [
    f.location ? `in **${esc(f.location)}**` : '',
    f.statuses?.length && !yesNo ? `with status ${f.statuses.map(esc).join(' or ')}` : '',
    f.owner ? `owned by ${esc(f.owner)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { adjectives, text };
}

/** Looks up what the intent needs and drafts the markdown answer from what `reader` may read, times in `timeZone`. */
export async function draftAnswer(db: Db, intent: Intent, timeZone: string, reader: Actor): Promise<Drafted> {
  const used: ToolUse[] = [];
  const run = (runners[intent.kind] as (i: Intent) => Run)(intent);
  const text = await run(db, used, timeZone, reader);
  return { text, tools: used };
}
