import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../src/markdown/document';
import { renderMarkdown } from '../../src/markdown/render';
import {
  type FilledContent,
  fillPlaceholders,
  HIDDEN_MARKER,
  hidePlaceholders,
  MAX_PLACEHOLDERS,
  PLACEHOLDER_FIELDS,
  type PlaceholderServer,
  placeholderNames,
  type ServersByName,
} from '../../src/runbooks/placeholders';

/** Issue 23: `{{server:NAME.field}}` in content, filled from the live record before the markdown renders. */

const web1: PlaceholderServer = {
  name: 'web1',
  hostname: 'web1.corp.example.com',
  ipAddress: '127.0.0.1',
  domain: 'corp.example.com',
  network: 'DMZ',
  environment: 'production',
  operatingSystem: 'Ubuntu 22.04 LTS',
  serverType: 'virtual',
  hardwareModel: 'Lenovo SR650 V2',
  serverLocation: 'Sydney DC1',
  primaryFunction: 'Web server',
  secondaryFunction: 'Reverse proxy',
  tertiaryFunction: 'Cache',
  teamOwner: 'Platform',
  keyContacts: 'Ada Lovelace',
  managedBy: 'Ops',
  status: 'online',
  cpuUsage: 41.6,
  memoryUsage: 52,
  diskUsage: 63,
  uptime: 3 * 86400 + 4 * 3600 + 59,
  lastHealthCheck: '2026-11-27T01:30:00.000Z',
  monitorPort: 2222,
  description: 'Front web tier',
  metricsUpdatedAt: '2026-11-27T01:29:00.000Z',
};

/** Every field as a reader sees it: the text ones as stored, usage, uptime, port and the check (Tokyo) as shown. */
const { metricsUpdatedAt: _pushed, cpuUsage, memoryUsage, diskUsage, uptime, monitorPort, ...stored } = web1;
const expected: Record<(typeof PLACEHOLDER_FIELDS)[number], string> = {
  ...(stored as Record<keyof typeof stored, string>),
  cpuUsage: '42%',
  memoryUsage: '52%',
  diskUsage: '63%',
  uptime: '3d 4h',
  lastHealthCheck: '27 Nov 2026, 10:30 am',
  monitorPort: '2222',
};

const byName = (...list: PlaceholderServer[]): ServersByName => {
  const map: ServersByName = new Map();
  for (const s of list) map.set(s.name.toLowerCase(), [...(map.get(s.name.toLowerCase()) ?? []), s]);
  return map;
};

const render = (f: FilledContent) => renderMarkdown(f.markdown, f.fill);
const fill = (content: string, servers = byName(web1)) => render(fillPlaceholders(content, servers, 'Asia/Tokyo'));

describe('server placeholders', () => {
  it.each(PLACEHOLDER_FIELDS)('fills %s from the record', (field) => {
    const filled = fillPlaceholders(`Value: {{server:web1.${field}}}`, byName(web1), 'Asia/Tokyo');
    expect(filled.values).toEqual([expected[field]]);
    expect(render(filled)).toBe(`<p>Value: ${expected[field]}</p>\n`);
  });

  it('covers every field the brief lists, and the notes are not one', () => {
    expect(Object.keys(expected).sort()).toEqual([...PLACEHOLDER_FIELDS].sort());
    expect(fill('{{server:web1.notes}}')).toBe('<p>⟦unknown field "notes"⟧</p>\n');
  });

  it('shows a visible marker for an unknown server or field, never an error', () => {
    expect(fill('ssh {{server:web9.ipAddress}}')).toBe('<p>ssh ⟦unknown server "web9"⟧</p>\n');
    expect(fill('{{server:web1.foo}}')).toBe('<p>⟦unknown field "foo"⟧</p>\n');
    expect(fill('{{server:web1}}')).toBe('<p>⟦unknown field ""⟧</p>\n');
    expect(fill('{{server:.ipAddress}}')).toBe('<p>⟦unknown server ""⟧</p>\n');
  });

  it('shows — for an empty value and for metrics no agent ever pushed', () => {
    const bare: PlaceholderServer = {
      ...web1,
      hostname: null,
      description: '',
      lastHealthCheck: null,
      metricsUpdatedAt: null,
    };
    const filled = fillPlaceholders(
      '{{server:web1.hostname}} {{server:web1.description}} {{server:web1.cpuUsage}} {{server:web1.uptime}} {{server:web1.lastHealthCheck}}',
      byName(bare),
    );
    expect(filled.values).toEqual(['—', '—', '—', '—', '—']);
  });

  it('fills code blocks and inline code too', () => {
    const html = fill(
      ['```sh', 'ssh admin@{{server:web1.ipAddress}} -p {{server:web1.monitorPort}}', '```'].join('\n'),
    );
    expect(html).toBe('<pre><code class="language-sh">ssh admin@127.0.0.1 -p 2222\n</code></pre>\n');
    expect(fill('Run `ping {{server:web1.hostname}}`')).toBe('<p>Run <code>ping web1.corp.example.com</code></p>\n');
  });

  it('reads the name in any case, the field in any case, and tolerates spaces in the braces', () => {
    expect(fill('{{server:WEB1.ipAddress}} {{ server : Web1.ipaddress }} {{SERVER:web1.IPADDRESS}}')).toBe(
      '<p>127.0.0.1 127.0.0.1 127.0.0.1</p>\n',
    );
    // Of two names that differ only in case, the one written exactly wins.
    const upper = { ...web1, name: 'WEB1', ipAddress: '127.0.0.9' };
    expect(fill('{{server:WEB1.ipAddress}} {{server:web1.ipAddress}}', byName(upper, web1))).toBe(
      '<p>127.0.0.9 127.0.0.1</p>\n',
    );
  });

  it('splits on the last dot, so a name may hold dots', () => {
    const dotted = { ...web1, name: 'web1.corp', ipAddress: '127.1.1.1' };
    expect(fill('{{server:web1.corp.ipAddress}}', byName(dotted))).toBe('<p>127.1.1.1</p>\n');
    expect(placeholderNames('{{server:web1.corp.ipAddress}} {{server:WEB1.name}} {{server:web1.bogus}}')).toEqual([
      'web1.corp',
      'web1',
    ]);
  });

  it('shows a value as text: no markup, no markdown, no link scheme the sanitiser refuses', () => {
    const evil: PlaceholderServer = {
      ...web1,
      name: '<b>x</b>',
      description: '*not emphasis* [link](javascript:alert(1)) <img src=x onerror=alert(1)> & `tick`',
      hostname: 'javascript:alert(1)',
    };
    const servers = byName(evil);
    expect(fill('Name: {{server:<b>x</b>.name}}', servers)).toBe('<p>Name: &lt;b&gt;x&lt;/b&gt;</p>\n');
    const described = fill('{{server:<b>x</b>.description}}', servers);
    expect(described).toBe(
      '<p>*not emphasis* [link](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt; &amp; `tick`</p>\n',
    );
    expect(fill('```\n{{server:<b>x</b>.name}}\n```', servers)).toBe(
      '<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n',
    );
    // Put into a link, the value still meets the sanitiser: a javascript: address loses its href.
    expect(fill('[open]({{server:<b>x</b>.hostname}})', servers)).toBe('<p><a>open</a></p>\n');
    expect(fill('<a href="{{server:<b>x</b>.hostname}}">open</a>', servers)).toBe('<p><a>open</a></p>\n');
  });

  it('puts values into links, headings and their anchors', () => {
    expect(fill('[Grafana](https://{{server:web1.hostname}}:3000/d)')).toBe(
      '<p><a href="https://web1.corp.example.com:3000/d" target="_blank" rel="noopener noreferrer">Grafana</a></p>\n',
    );
    const filled = fillPlaceholders('## Patch {{server:web1.name}}', byName(web1));
    const doc = renderDocument(filled.markdown, filled.fill);
    expect(doc.headings).toEqual([{ id: 'patch-web1', level: 2, text: 'Patch web1' }]);
  });

  it('looks up the names of the first MAX_PLACEHOLDERS placeholders, and none longer than a server name may be', () => {
    const many = Array.from({ length: MAX_PLACEHOLDERS + 5 }, (_, i) => `{{server:s${i}.name}}`).join(' ');
    expect(placeholderNames(many)).toHaveLength(MAX_PLACEHOLDERS);
    expect(placeholderNames(`{{server:${'x'.repeat(101)}.name}} {{server:${'y'.repeat(100)}.name}}`)).toEqual([
      'y'.repeat(100),
    ]);
  });

  it('fills the first MAX_PLACEHOLDERS placeholders and leaves the rest as written (a text of placeholders costs no more)', () => {
    const many = `${'{{server:web1.ipAddress}} '.repeat(MAX_PLACEHOLDERS)}{{server:web1.hostname}}`;
    const filled = fillPlaceholders(many, byName(web1));
    expect(filled.values).toHaveLength(MAX_PLACEHOLDERS);
    expect(new Set(filled.values)).toEqual(new Set(['127.0.0.1']));
    expect(filled.markdown.endsWith('{{server:web1.hostname}}')).toBe(true);
    expect(hidePlaceholders(many).values).toHaveLength(MAX_PLACEHOLDERS);
  });

  it('leaves content without placeholders untouched, and text that only looks like one', () => {
    const plain = fillPlaceholders('Nothing {{here}} and {{server}} {server:web1.name}', byName(web1));
    expect(plain.values).toEqual([]);
    expect(plain.fill).toBeUndefined();
    expect(plain.markdown).toBe('Nothing {{here}} and {{server}} {server:web1.name}');
  });

  it('hides every value from a share link reader', () => {
    const hidden = hidePlaceholders('ssh {{server:web1.ipAddress}} on {{server:web9.bogus}}');
    expect(hidden.values).toEqual([HIDDEN_MARKER, HIDDEN_MARKER]);
    expect(render(hidden)).toBe('<p>ssh ⟦server details hidden⟧ on ⟦server details hidden⟧</p>\n');
  });
});
