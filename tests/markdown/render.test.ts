import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/markdown/render';
import { UNSAFE_HTML, XSS_CASES } from './xss-cases';

describe('renderMarkdown', () => {
  it('renders GFM: headings, lists, tables, code', () => {
    const html = renderMarkdown(
      '# Title\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\nsudo reboot\n```',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<code class="language-sh">sudo reboot');
  });

  it.each(XSS_CASES)('makes %s harmless', (_name, md) => {
    expect(renderMarkdown(md)).not.toMatch(UNSAFE_HTML);
  });

  it('keeps in-app links in the app and opens others in a new tab with rel=noopener', () => {
    const html = renderMarkdown('[kb](/knowledge-base?doc=1) [ext](https://example.com) [proto](//evil.example/x)');
    expect(html).toContain('<a href="/knowledge-base?doc=1">kb</a>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ext</a>');
    expect(html).not.toContain('evil.example');
  });

  it('keeps inline data: images of safe types and honours the width/height comment before them', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const html = renderMarkdown(
      `Intro\n\n<!-- width=300px height=200px -->\n![Step 1](${png})\n\n<!-- width=120 height=auto -->![Two](/objects/abc)`,
    );
    expect(html).toContain(`<img src="${png}" alt="Step 1" width="300" height="200"`);
    expect(html).toContain('<img src="/objects/abc" alt="Two" width="120"');
    expect(html).not.toContain('height="auto"');
    expect(html).not.toContain('<!--');
  });

  it('does not let the size comment smuggle attributes', () => {
    const html = renderMarkdown('<!-- width=300 height=200 -->\n![a" onerror="alert(1)](/x.png)');
    expect(html).toContain('alt="a&quot; onerror=&quot;alert(1)"');
    expect(html).not.toMatch(/\sonerror="/);
  });
});
