import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { itemMarkdown } from '../../src/exports/service';
import { readMarkdownItem } from '../../src/imports/markdown-file';
import { DOCUMENT_TEMPLATE_TYPES, templateTypes } from '../../src/knowledge/shared';
import type { Item } from '../../src/knowledge/schemas';

/** The front matter reads back (YAML 1.2 and 1.1) as exactly what was written, whatever the text. */

const TRICKY = [
  'VPN restart',
  'Restart: the "night" VPN',
  'yes',
  'No',
  'null',
  '~',
  'true',
  '2026-11-27',
  '0x1F',
  '0o17',
  '017',
  '1:20',
  'on',
  'Y',
  '1e3',
  '.inf',
  '- dash first',
  '# not a comment',
  'a # b',
  'key: value',
  '[flow]',
  '{map}',
  'a, b',
  '*alias',
  '&anchor',
  '!tag',
  '|',
  '>',
  '%directive',
  '@at',
  '`tick',
  "it's",
  'trailing space ',
  ' leading space',
  'two  spaces',
  'line\nbreak',
  'tab\there',
  'back\\slash',
  'Günther’s Überprüfung',
  'Резервное копирование',
  '日本語のタイトル',
  'emoji 🚀 launch',
  'ends with colon:',
  '---',
  '...',
  '',
  'x'.repeat(120),
];

const item = (title: string, tags: string[], templateType: string | null = null): Item =>
  ({
    id: 'a7e2f0c4-4b0d-4b55-8f3e-9c8d7e6f5a4b',
    title,
    content: 'Body.',
    excerpt: title || null,
    category: title || null,
    tags,
    version: 3,
    templateType,
    owner: { firstName: null, lastName: null, email: 'o@example.com' },
    updatedAt: '2026-11-27T10:00:00.000Z',
    reviewDueAt: null,
  }) as unknown as Item;

const frontMatter = (text: string, version: '1.1' | '1.2' = '1.2') =>
  parse(/^---\n([\s\S]*?)---\n\n/.exec(text)![1], { version }) as Record<string, unknown>;

describe('front matter', () => {
  for (const version of ['1.2', '1.1'] as const) {
    it(`reads back as written (YAML ${version})`, () => {
      for (const title of TRICKY) {
        const meta = frontMatter(itemMarkdown(item(title, TRICKY), 'knowledge', 'Body.'), version);
        expect(meta.title, JSON.stringify(title)).toBe(title);
        expect(meta.tags).toEqual(TRICKY);
        if (title) expect(meta.category).toBe(title);
        expect(meta.version).toBe(3);
        expect(meta.updatedAt).toBe('2026-11-27T10:00:00.000Z');
        expect(meta.type).toBe('knowledge-base');
      }
    });
  }

  it('writes plain text plainly, one line a value, and the content byte for byte after a blank line', () => {
    const text = itemMarkdown(item('VPN restart', ['vpn', 'night shift']), 'knowledge', 'Body.');
    expect(text).toBe(
      [
        '---',
        'id: a7e2f0c4-4b0d-4b55-8f3e-9c8d7e6f5a4b',
        'title: VPN restart',
        'space: knowledge',
        'type: knowledge-base',
        'category: VPN restart',
        'tags:',
        '  - vpn',
        '  - night shift',
        'excerpt: VPN restart',
        'version: 3',
        'owner: o@example.com',
        'updatedAt: "2026-11-27T10:00:00.000Z"',
        '---',
        '',
        'Body.',
      ].join('\n'),
    );
    expect(itemMarkdown(item('x'.repeat(120), []), 'knowledge', 'Body.')).toContain(`\ntitle: ${'x'.repeat(120)}\n`);
  });

  it('writes the type import reads back as the same templateType', () => {
    const typeOf = (space: 'knowledge' | 'documents', templateType: string | null) =>
      frontMatter(itemMarkdown(item('T', [], templateType), space, 'Body.')).type;
    expect(typeOf('knowledge', null)).toBe('knowledge-base');
    expect(typeOf('knowledge', 'how_to_guide')).toBe('how-to-guide');
    expect(typeOf('knowledge', 'work_instruction')).toBe('work-instruction');
    expect(typeOf('knowledge', 'build_document')).toBe('build-document');
    // A plain type has no kind of its own: its kind (knowledge-base) would read back as none.
    expect(typeOf('knowledge', 'server_setup')).toBe('server_setup');
    expect(typeOf('knowledge', 'general')).toBe('general');
    expect(typeOf('documents', 'troubleshooting')).toBe('troubleshooting');
    expect(typeOf('documents', null)).toBeUndefined();
  });

  it('is read back by import as the same item: title, content, category, tags, excerpt, templateType', () => {
    const cases = [
      ...[null, ...templateTypes].map((t) => ['knowledge', t] as const),
      ...[null, ...DOCUMENT_TEMPLATE_TYPES].map((t) => ['documents', t] as const),
    ];
    for (const [space, templateType] of cases) {
      for (const title of TRICKY.filter((t) => t.trim())) {
        const content = `# Heading\n\n${title}\n\n    indented code\n`;
        const read = readMarkdownItem(
          'Folder/file.md',
          itemMarkdown(item(title, TRICKY, templateType), space, content),
          space,
        );
        // Import trims text, as the editor does (a stored title never ends in a space).
        expect(read, `${space} ${templateType} ${JSON.stringify(title)}`).toEqual({
          title: title.trim(),
          content,
          category: title.trim(),
          tags: TRICKY.map((t) => t.trim()).filter(Boolean),
          templateType,
          excerpt: title.trim(),
        });
      }
    }
  });
});
