import { describe, expect, it } from 'vitest';
import {
  FileProblem,
  imageTargets,
  readMarkdownItem,
  resolveImage,
  rewriteImages,
  templateTypeOf,
} from '../../src/imports/markdown-file';

describe('a Markdown file as an item', () => {
  it('takes title, category, tags, type and excerpt from front matter and ignores unknown keys', () => {
    const text = [
      '---',
      'title: Restart nginx',
      'category: Web',
      'tags: [nginx, web]',
      'type: troubleshooting',
      'excerpt: When the proxy hangs',
      'id: 3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d',
      'version: 7',
      '---',
      '# A heading that stays',
      '',
      'Body.',
    ].join('\n');
    expect(readMarkdownItem('ops/linux/nginx.md', text, 'knowledge')).toEqual({
      title: 'Restart nginx',
      category: 'Web',
      tags: ['nginx', 'web'],
      templateType: 'troubleshooting',
      excerpt: 'When the proxy hangs',
      content: '# A heading that stays\n\nBody.',
    });
  });

  it('without front matter: the first heading is the title (taken out when it leads), the folder the category', () => {
    const item = readMarkdownItem('ops/linux/backup.md', '\uFEFF# Nightly backups\n\nRun it.\n', 'knowledge');
    expect(item).toMatchObject({ title: 'Nightly backups', category: 'linux', content: 'Run it.\n', tags: [] });
    expect(readMarkdownItem('stub.md', '# Only a heading\n', 'knowledge').content).toBe('# Only a heading\n');
    const fenced = readMarkdownItem('x.md', '```\n# not a title\n```\n\n# Real title\n', 'knowledge');
    expect(fenced.title).toBe('Real title');
    expect(readMarkdownItem('top-level.md', 'Just text.', 'knowledge')).toMatchObject({
      title: 'top-level',
      category: null,
    });
  });

  it('a kind named by its type, kind or label; unknown types and broken YAML are the file’s problem', () => {
    expect(templateTypeOf('How-To Guide', 'knowledge')).toBe('how_to_guide');
    expect(templateTypeOf('build-document', 'knowledge')).toBe('build_document');
    expect(templateTypeOf('knowledge-base', 'knowledge')).toBeNull();
    expect(() => templateTypeOf('build_document', 'documents')).toThrow(FileProblem);
    expect(() => templateTypeOf('poem', 'knowledge')).toThrow(/not a type we know/);
    expect(() => readMarkdownItem('x.md', '---\ntitle: [unclosed\n---\nx', 'knowledge')).toThrow(/not valid YAML/);
    expect(() => readMarkdownItem('x.md', '---\n- a list\n---\nx', 'knowledge')).toThrow(/map of keys/);
    expect(readMarkdownItem('w.md', '---\ntype: work-instruction\n---\nSteps', 'knowledge').category).toBe('sop');
  });
});

describe('images of a file', () => {
  const text = [
    '![a](images/my%20pic.png "t") ![b](<img/b c.jpg>) ![c][ref] ![remote](https://example.com/x.png)',
    '![abs](/objects/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d) [a link](images/doc.pdf)',
    '<img src="raw.gif" alt="x">',
    '',
    '[ref]: ../img/b.jpg',
  ].join('\n');

  it('finds relative images only (inline, reference and HTML) and resolves them from the file’s folder', () => {
    expect(imageTargets(text).sort()).toEqual(['../img/b.jpg', 'images/my%20pic.png', 'img/b c.jpg', 'raw.gif']);
    expect(resolveImage('ops/a.md', 'images/my%20pic.png')).toBe('ops/images/my pic.png');
    expect(resolveImage('ops/a.md', '../img/b.jpg?x=1')).toBe('img/b.jpg');
    expect(() => resolveImage('ops/a.md', '../../etc/passwd')).toThrow(/outside the upload/);
  });

  it('rewrites exactly those links and leaves remote ones', () => {
    const urls = new Map([
      ['images/my%20pic.png', '/objects/1'],
      ['img/b c.jpg', '/objects/2'],
      ['../img/b.jpg', '/objects/3'],
      ['raw.gif', '/objects/4'],
    ]);
    const out = rewriteImages(text, urls);
    expect(out).toContain('![a](/objects/1 "t")');
    expect(out).toContain('![b](/objects/2)');
    expect(out).toContain('[ref]: /objects/3');
    expect(out).toContain('<img src="/objects/4" alt="x">');
    expect(out).toContain('![remote](https://example.com/x.png)');
    expect(out).toContain('[a link](images/doc.pdf)');
  });
});

describe('text the database cannot store', () => {
  it('in any front matter value (written with YAML escapes) is the file’s problem, named', () => {
    const read = (yaml: string) => () => readMarkdownItem('x.md', `---\n${yaml}\n---\nBody`, 'knowledge');
    expect(read('title: "Nul \\0 here"')).toThrow('Front matter "title" contains the NUL character (U+0000)');
    expect(read('category: "half \\uD800 pair"')).toThrow('Front matter "category" contains a lone surrogate');
    expect(read('tags: [fine, "bad \\0"]')).toThrow(/Front matter "tags" contains the NUL/);
    expect(read('excerpt: "\\uDC00"')).toThrow(FileProblem);
    expect(read('type: "\\0"')).toThrow(FileProblem);
    expect(read('title: "A whole \\U0001F600 pair"')().title).toBe('A whole \u{1F600} pair');
  });
});

describe('image links rewritten where marked finds the image', () => {
  const urls = (...targets: string[]) => new Map(targets.map((t, i) => [t, `/objects/${i + 1}`]));

  it('with brackets, parentheses or a title in the link, in quotes, lists and tables', () => {
    const text = [
      '![a [b]](x.png) ![c](d(1).png "see (1)") ![e](<f g.png>)',
      '',
      '> quoted ![q](x.png',
      '> )',
      '',
      '- item ![li](x.png)',
      '',
      '| a | b |',
      '|---|---|',
      '| ![t](x.png) | `![s](x.png)` |',
    ].join('\n');
    expect(imageTargets(text).sort()).toEqual(['d(1).png', 'f g.png', 'x.png']);
    const out = rewriteImages(text, urls('x.png', 'd(1).png', 'f g.png'));
    expect(out).toBe(
      [
        '![a [b]](/objects/1) ![c](/objects/2 "see (1)") ![e](/objects/3)',
        '',
        '> quoted ![q](/objects/1',
        '> )',
        '',
        '- item ![li](/objects/1)',
        '',
        '| a | b |',
        '|---|---|',
        '| ![t](/objects/1) | `![s](x.png)` |',
      ].join('\n'),
    );
  });

  it('leaves code blocks, code spans and escaped look-alikes as they are', () => {
    const text = [
      '```',
      '![code](x.png)',
      '```',
      '',
      '    ![indented](x.png)',
      '',
      'Inline `![span](x.png)` and \\![escaped](x.png) then ![real](x.png)',
      '',
      '~~~md',
      '<img src="x.png">',
      '~~~',
    ].join('\n');
    const out = rewriteImages(text, urls('x.png'));
    expect(out).toBe(text.replace('then ![real](x.png)', 'then ![real](/objects/1)'));
  });

  it('finds and rewrites an unquoted <img src>, and decodes &amp; in a src', () => {
    const text = '<img src=pics/a.png alt=a> and <p><img\n  alt="b" src="b&amp;c.png"></p>';
    expect(imageTargets(text).sort()).toEqual(['b&c.png', 'pics/a.png']);
    expect(
      rewriteImages(
        text,
        new Map([
          ['pics/a.png', '/objects/1'],
          ['b&c.png', '/objects/2'],
        ]),
      ),
    ).toBe('<img src=/objects/1 alt=a> and <p><img\n  alt="b" src="/objects/2"></p>');
  });

  it('an image whose place cannot be told is the file’s problem, never a link left relative', () => {
    // In a list indented with tabs, marked expands the tabs of an image written over two lines: its text is not found.
    expect(() => rewriteImages('- a\n\n\t![a\n\t\tb](x.png)', urls('x.png'))).toThrow(
      new FileProblem('Image "x.png" could not be linked to the imported image; write it as ![alt](x.png).'),
    );
    // Code in such a list stays as it is, the image after it is rewritten.
    expect(rewriteImages('1. x\n\n\t    code ![a](x.png)\n\n   ![b](x.png)', urls('x.png'))).toBe(
      '1. x\n\n\t    code ![a](x.png)\n\n   ![b](/objects/1)',
    );
  });
});
